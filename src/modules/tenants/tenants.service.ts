import { Injectable } from '@nestjs/common';
import { ValidationError } from '../../common/errors/app-error';
import { type Tenant, toTenant } from './tenant';
import { Plan, PLANS, type TenantEntity } from './tenant.entity';
import { TenantsRepository } from './tenants.repository';
import { TenantErrors } from './tenants.errors';

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

@Injectable()
export class TenantsService {
  /** Slugs never change, so id → slug is cached for the auth hot path. */
  private readonly slugs = new Map<string, string>();

  constructor(private readonly tenants: TenantsRepository) {}

  async create(slug: string, options: { name?: string; plan?: string } = {}): Promise<Tenant> {
    if (!SLUG.test(slug)) {
      throw new ValidationError(
        'slug must be 1-63 lower-case letters, digits or -, starting with a letter or digit',
        'slug',
      );
    }
    const plan = this.checkPlan(options.plan ?? 'free');
    if (await this.tenants.findBySlug(slug)) throw TenantErrors.slugTaken(slug);
    return toTenant(await this.tenants.create({ slug, name: options.name?.trim() || slug, plan }));
  }

  async update(slug: string, changes: { name?: string; plan?: string }): Promise<Tenant> {
    const tenant = await this.getBySlug(slug);
    const update: Partial<Pick<TenantEntity, 'name' | 'plan'>> = {};
    if (changes.plan !== undefined) update.plan = this.checkPlan(changes.plan);
    if (changes.name !== undefined) update.name = changes.name.trim() || slug;
    if (Object.keys(update).length === 0) throw new ValidationError('Nothing to update: pass --name or --plan');
    await this.tenants.update(tenant.id, update);
    return { ...tenant, ...update };
  }

  async getBySlug(slug: string): Promise<Tenant> {
    const tenant = await this.findBySlug(slug);
    if (!tenant) throw TenantErrors.slugNotFound(slug);
    return tenant;
  }

  async findBySlug(slug: string): Promise<Tenant | null> {
    const tenant = await this.tenants.findBySlug(slug);
    return tenant && toTenant(tenant);
  }

  async getById(id: string): Promise<Tenant> {
    const tenant = await this.tenants.findById(id);
    if (!tenant) throw TenantErrors.tenantNotFound();
    return toTenant(tenant);
  }

  async slugOf(tenantId: string): Promise<string> {
    const cached = this.slugs.get(tenantId);
    if (cached) return cached;
    const tenant = await this.getById(tenantId);
    this.slugs.set(tenantId, tenant.slug);
    return tenant.slug;
  }

  private checkPlan(plan: string): Plan {
    if (!PLANS.includes(plan as Plan)) throw new ValidationError(`plan must be one of ${PLANS.join(', ')}`, 'plan');
    return plan as Plan;
  }
}
