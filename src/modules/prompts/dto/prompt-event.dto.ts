import { PageNumber, PageSize } from '../../../common/http/paging';
import { EVENT_PAGE_SIZE } from '../../prompt-events/prompt-events.service';

/** Query of GET /admin/v1/prompts/{id}/events and /endpoints/{id}/events. */
export class ListPromptEventsQuery {
  /** Page number, from 1. Default 1. */
  @PageNumber()
  page?: number;

  /** Rows per page, 1..50. Default 20. */
  @PageSize(EVENT_PAGE_SIZE)
  pageSize?: number;
}
