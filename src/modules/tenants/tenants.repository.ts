import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Plan, TenantEntity } from './tenant.entity';

/** Tenants are the scope of everything else, so this is the one repository not scoped by tenant. */
@Injectable()
export class TenantsRepository {
  constructor(@InjectRepository(TenantEntity) private readonly tenants: Repository<TenantEntity>) {}

  findBySlug(slug: string): Promise<TenantEntity | null> {
    return this.tenants.findOneBy({ slug });
  }

  findById(id: string): Promise<TenantEntity | null> {
    return this.tenants.findOneBy({ id });
  }

  create(values: { slug: string; name: string; plan: Plan }): Promise<TenantEntity> {
    return this.tenants.save(this.tenants.create(values));
  }

  async update(id: string, changes: Partial<Pick<TenantEntity, 'name' | 'plan'>>): Promise<void> {
    await this.tenants.update({ id }, changes);
  }
}
