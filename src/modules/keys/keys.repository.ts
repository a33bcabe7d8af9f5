import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import type { RateLimitSettings } from '../../common/rate-limit/rate-limit-settings';

export type NewApiKey = Omit<ApiKeyEntity, 'id' | 'createdAt' | 'lastUsedAt' | 'revokedAt' | 'status'>;
export type ApiKeyChanges = Partial<Pick<ApiKeyEntity, 'name' | 'endpointIds' | keyof RateLimitSettings>>;

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

  /** The tenant's keys among `ids` (revoked ones included), with only their id and name. */
  namesByIds(tenantId: string, ids: string[]): Promise<Pick<ApiKeyEntity, 'id' | 'name'>[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.keys.find({ select: { id: true, name: true }, where: { tenantId, id: In(ids) } });
  }

  /**
   * `limit` of the tenant's keys from `offset`, oldest first (id breaks ties). The page's ids are chosen from
   * ix_api_keys_tenant_created alone (an index-only range read: skipping 100,000 entries reads no table rows), then only
   * those rows are read.
   */
  listPage(tenantId: string, offset: number, limit: number): Promise<ApiKeyEntity[]> {
    const page = this.keys
      .createQueryBuilder('p')
      .select('p.id')
      .where('p.tenant_id = :tenantId', { tenantId })
      .orderBy('p.created_at', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .offset(offset)
      .limit(limit);
    return this.keys
      .createQueryBuilder('k')
      .where(`k.id IN (${page.getQuery()})`)
      .andWhere('k.tenant_id = :tenantId')
      .setParameters(page.getParameters())
      .orderBy('k.created_at', 'ASC')
      .addOrderBy('k.id', 'ASC')
      .getMany();
  }

  create(values: NewApiKey): Promise<ApiKeyEntity> {
    return this.keys.save(this.keys.create({ ...values, status: 'Active' }));
  }

  /** An update that changes nothing sends no query (TypeORM refuses an UPDATE without values). */
  async update(tenantId: string, id: string, changes: ApiKeyChanges): Promise<void> {
    if (Object.values(changes).every((value) => value === undefined)) return;
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
