import { ApiEnum } from '../../../common/http/api-schema.decorators';
import { type Plan, PLANS } from '../../tenants/plans';
import { KeyResponse } from './key.response';

export class SessionTenant {
  /** The tenant's slug: its host is `<slug>.<BASE_DOMAIN>`. */
  slug: string;
  name: string;
  @ApiEnum('Plan', PLANS)
  plan: Plan;
}

/** Who the presented admin key is: the key itself and its tenant. */
export class SessionResponse {
  tenant: SessionTenant;
  key: KeyResponse;
}
