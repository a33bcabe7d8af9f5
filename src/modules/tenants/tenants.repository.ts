import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { Plan, TenantEntity } from './tenant.entity';
import { TransactionHost } from '../../database/transactions';

/** Tenants are the scope of everything else, so this is the one repository not scoped by tenant. */
@Injectable()
export class TenantsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  /** The open transaction's, when there is one. */
  private get tenants(): Repository<TenantEntity> {
    return this.txHost.tx.getRepository(TenantEntity);
  }

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
