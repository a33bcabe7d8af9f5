import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { TransactionHost } from '../../database/transactions';
import { ScoreConfigEntity } from './score-config.entity';

export type NewScoreConfig = Pick<
  ScoreConfigEntity,
  'tenantId' | 'name' | 'dataType' | 'minimum' | 'maximum' | 'categories' | 'description'
>;
export type ScoreConfigChanges = Omit<NewScoreConfig, 'tenantId'>;

@Injectable()
export class ScoreConfigsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  /** The open transaction's, when there is one. */
  private get configs(): Repository<ScoreConfigEntity> {
    return this.txHost.tx.getRepository(ScoreConfigEntity);
  }

  /** The tenant's configs by name (at most a few dozen, so no paging). */
  list(tenantId: string): Promise<ScoreConfigEntity[]> {
    return this.configs.find({ where: { tenantId }, order: { name: 'ASC' } });
  }

  count(tenantId: string): Promise<number> {
    return this.configs.countBy({ tenantId });
  }

  /** Inside a transaction: makes the tenant's config creations take turns until it ends (a transaction-level lock). */
  async lockTenantConfigs(tenantId: string): Promise<void> {
    await this.configs.query(`SELECT pg_advisory_xact_lock(hashtextextended('score_configs:' || $1, 0))`, [tenantId]);
  }

  findById(tenantId: string, id: string): Promise<ScoreConfigEntity | null> {
    return this.configs.findOneBy({ tenantId, id });
  }

  /**
   * Inside a transaction: the config of that name, locked against changes (FOR SHARE) until the transaction ends, so
   * a score is never recorded against a config being renamed, retyped or deleted.
   */
  findByNameForScoring(tenantId: string, name: string): Promise<ScoreConfigEntity | null> {
    return this.configs
      .createQueryBuilder('c')
      .where('c.tenant_id = :tenantId AND c.name = :name', { tenantId, name })
      .setLock('pessimistic_read')
      .getOne();
  }

  /** Inside a transaction: the config, locked for a change (FOR UPDATE). */
  findByIdForChange(tenantId: string, id: string): Promise<ScoreConfigEntity | null> {
    return this.configs
      .createQueryBuilder('c')
      .where('c.tenant_id = :tenantId AND c.id = :id', { tenantId, id })
      .setLock('pessimistic_write')
      .getOne();
  }

  create(values: NewScoreConfig): Promise<ScoreConfigEntity> {
    return this.configs.save(this.configs.create(values));
  }

  async update(tenantId: string, id: string, changes: ScoreConfigChanges): Promise<void> {
    await this.configs.update({ tenantId, id }, changes);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    await this.configs.delete({ tenantId, id });
  }
}
