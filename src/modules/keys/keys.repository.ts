import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';

export type NewApiKey = Omit<ApiKeyEntity, 'id' | 'createdAt' | 'lastUsedAt' | 'revokedAt' | 'status'>;
export type ApiKeyChanges = Partial<
  Pick<ApiKeyEntity, 'name' | 'endpointIds' | 'rateLimitPerMinute' | 'rateLimitPerHour' | 'rateLimitPerDay'>
>;

@Injectable()
export class KeysRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

  /** The one lookup not scoped by tenant: the key hash is what tells us the tenant. */
  findByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ keyHash });
  }

  findById(tenantId: string, id: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ tenantId, id });
  }

  listByTenant(tenantId: string): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { tenantId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  create(values: NewApiKey): Promise<ApiKeyEntity> {
    return this.keys.save(this.keys.create({ ...values, status: 'Active' }));
  }

  async update(tenantId: string, id: string, changes: ApiKeyChanges): Promise<void> {
    await this.keys.update({ tenantId, id }, changes);
  }

  async revoke(tenantId: string, id: string): Promise<void> {
    await this.keys.update({ tenantId, id, status: 'Active' }, { status: 'Revoked', revokedAt: new Date() });
  }

  /** One statement for a batch of last-used times; never moves a time backwards. */
  async touchLastUsed(times: Map<string, Date>): Promise<void> {
    if (times.size === 0) return;
    const ids = [...times.keys()];
    const stamps = ids.map((id) => times.get(id)!.toISOString());
    await this.keys.query(
      `UPDATE api_keys AS k SET last_used_at = GREATEST(COALESCE(k.last_used_at, v.t), v.t)
         FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, t) WHERE k.id = v.id`,
      [ids, stamps],
    );
  }
}
