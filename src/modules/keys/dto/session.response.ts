import type { Plan } from '../../tenants/tenant.entity';
import { KeyResponse } from './key.response';

export class SessionTenant {
  /** The tenant's slug: its host is `<slug>.<BASE_DOMAIN>`. */
  slug: string;
  name: string;
  plan: Plan;
}

/** Who the presented admin key is: the key itself and its tenant. */
export class SessionResponse {
  tenant: SessionTenant;
  key: KeyResponse;
}
