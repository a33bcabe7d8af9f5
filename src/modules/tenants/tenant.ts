import type { Plan, TenantEntity } from './tenant.entity';

/** A tenant as other modules see it (keys, versions, the CLI): never its row. */
export interface Tenant {
  id: string;
  slug: string;
  name: string;
  plan: Plan;
}

export function toTenant(entity: TenantEntity): Tenant {
  return { id: entity.id, slug: entity.slug, name: entity.name, plan: entity.plan };
}
