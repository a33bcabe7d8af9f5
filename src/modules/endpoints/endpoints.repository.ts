import { Injectable } from '@nestjs/common';
import { Brackets, In, IsNull, Repository } from 'typeorm';
import { EndpointEntity, Visibility } from './endpoint.entity';
import { TransactionHost } from '../../database/transactions';
import type { TrafficSplit } from './traffic-split';

export type EndpointValues = Omit<
  EndpointEntity,
  'id' | 'tenantId' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'defaultPromptId' | 'trafficSplit'
>;

export interface EndpointFilter {
  search?: string;
  visibility?: Visibility;
  category?: string;
  deleted?: boolean;
}

@Injectable()
export class EndpointsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  /** The open transaction's, when there is one. */
  private get endpoints(): Repository<EndpointEntity> {
    return this.txHost.tx.getRepository(EndpointEntity);
  }

  /**
   * `limit` of the tenant's matching endpoints from `offset`, oldest first (id breaks ties): a range of
   * ix_endpoints_tenant_created (or of its deleted counterpart). A name search (a substring, which no B-tree serves)
   * reads the tenant's endpoints and sorts the few that match.
   */
  list(tenantId: string, filter: EndpointFilter, offset: number, limit: number): Promise<EndpointEntity[]> {
    const query = this.endpoints
      .createQueryBuilder('e')
      .where('e.tenant_id = :tenantId', { tenantId })
      .andWhere(filter.deleted ? 'e.deleted_at IS NOT NULL' : 'e.deleted_at IS NULL')
      .orderBy('e.created_at', 'ASC')
      .addOrderBy('e.id', 'ASC');
    if (filter.visibility) query.andWhere('e.visibility = :visibility', { visibility: filter.visibility });
    if (filter.category) query.andWhere('e.category = :category', { category: filter.category });
    if (filter.search) {
      const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query.andWhere(new Brackets((q) => q.where('e.name ILIKE :pattern', { pattern })));
    }
    return query.offset(offset).limit(limit).getMany();
  }

  /** Every endpoint of the tenant that is not soft-deleted, in path order. */
  listActive(tenantId: string): Promise<EndpointEntity[]> {
    return this.endpoints.find({ where: { tenantId, deletedAt: IsNull() }, order: { path: 'ASC' } });
  }

  /** An endpoint that is not soft-deleted. */
  findActive(tenantId: string, id: string): Promise<EndpointEntity | null> {
    return this.endpoints.findOneBy({ tenantId, id, deletedAt: IsNull() });
  }

  /** Any endpoint, soft-deleted or not. */
  findAny(tenantId: string, id: string): Promise<EndpointEntity | null> {
    return this.endpoints.findOneBy({ tenantId, id });
  }

  findActiveByPath(tenantId: string, path: string): Promise<EndpointEntity | null> {
    return this.endpoints.findOneBy({ tenantId, path, deletedAt: IsNull() });
  }

  async existingIds(tenantId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.endpoints.find({
      select: { id: true },
      where: { tenantId, id: In(ids), deletedAt: IsNull() },
    });
    return rows.map((row) => row.id);
  }

  create(tenantId: string, values: EndpointValues): Promise<EndpointEntity> {
    return this.endpoints.save(
      this.endpoints.create({ ...values, tenantId, deletedAt: null, defaultPromptId: null, trafficSplit: null }),
    );
  }

  async update(
    tenantId: string,
    id: string,
    changes: Partial<EndpointValues> & { deletedAt?: Date | null },
  ): Promise<void> {
    await this.endpoints.update({ tenantId, id }, changes);
  }

  /** The active endpoint, row-locked until the caller's transaction ends (TypeORM refuses the lock outside one). */
  lockActive(tenantId: string, id: string): Promise<EndpointEntity | null> {
    return this.endpoints.findOne({
      where: { tenantId, id, deletedAt: IsNull() },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Inside the caller's transaction, which holds the endpoint's row lock (lockActive). */
  async setDefaultPrompt(tenantId: string, id: string, promptId: string | null): Promise<void> {
    await this.endpoints.update({ tenantId, id }, { defaultPromptId: promptId });
  }

  /** Inside the caller's transaction, which holds the endpoint's row lock (lockActive). */
  async setTrafficSplit(tenantId: string, id: string, split: TrafficSplit | null): Promise<void> {
    await this.endpoints.update({ tenantId, id }, { trafficSplit: split });
  }

  /** Rows of other modules (prompts, versions, logs) go with it through their ON DELETE CASCADE foreign keys. */
  async deletePermanently(tenantId: string, id: string): Promise<void> {
    await this.endpoints.delete({ tenantId, id });
  }
}
