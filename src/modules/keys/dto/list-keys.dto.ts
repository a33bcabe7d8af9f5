import { ListPageQuery } from '../../../common/http/paging';

/** Query of GET /admin/v1/keys: a page of the tenant's keys, oldest first. */
export class ListKeysQuery extends ListPageQuery {}
