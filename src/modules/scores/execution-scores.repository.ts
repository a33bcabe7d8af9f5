import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { TransactionHost } from '../../database/transactions';
import { ExecutionScoreEntity } from './execution-score.entity';

export type NewExecutionScore = Omit<ExecutionScoreEntity, 'id' | 'createdAt' | 'updatedAt'>;

/** The columns of execution_scores in the order `upsert` inserts them. */
const COLUMNS = [
  'tenant_id',
  'log_id',
  'endpoint_id',
  'prompt_id',
  'prompt_version',
  'key_id',
  'executed_at',
  'name',
  'config_id',
  'data_type',
  'value_number',
  'value_category',
  'comment',
  'source',
] as const;

@Injectable()
export class ExecutionScoresRepository {
  constructor(private readonly txHost: TransactionHost) {}

  /** The open transaction's, when there is one. */
  private get scores(): Repository<ExecutionScoreEntity> {
    return this.txHost.tx.getRepository(ExecutionScoreEntity);
  }

  /**
   * Records the score of a log row under its name: a new row, or the existing one's value, comment and source replaced
   * (one statement, so two concurrent recordings cannot both insert). `created` tells which.
   */
  async upsert(score: NewExecutionScore): Promise<{ score: ExecutionScoreEntity; created: boolean }> {
    const values = [
      score.tenantId,
      score.logId,
      score.endpointId,
      score.promptId,
      score.promptVersion,
      score.keyId,
      score.executedAt,
      score.name,
      score.configId,
      score.dataType,
      score.valueNumber,
      score.valueCategory,
      score.comment,
      score.source,
    ];
    const [row] = await this.scores.query<Record<string, unknown>[]>(
      `INSERT INTO execution_scores (${COLUMNS.join(', ')})
       VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
       ON CONFLICT (log_id, name) DO UPDATE SET
         config_id = EXCLUDED.config_id, data_type = EXCLUDED.data_type, value_number = EXCLUDED.value_number,
         value_category = EXCLUDED.value_category, comment = EXCLUDED.comment, source = EXCLUDED.source,
         updated_at = now()
       RETURNING id, created_at, updated_at, (xmax = 0) AS created`,
      values,
    );
    return {
      score: { ...score, id: String(row.id), createdAt: row.created_at as Date, updatedAt: row.updated_at as Date },
      created: row.created === true,
    };
  }

  /** A log row's scores, by name. */
  findByLog(tenantId: string, logId: string): Promise<ExecutionScoreEntity[]> {
    return this.scores.find({ where: { tenantId, logId }, order: { name: 'ASC' } });
  }

  /** Whether any score was recorded against the config. */
  async isConfigUsed(tenantId: string, configId: string): Promise<boolean> {
    const rows = await this.scores.query<unknown[]>(
      `SELECT 1 FROM execution_scores WHERE config_id = $1 AND tenant_id = $2 LIMIT 1`,
      [configId, tenantId],
    );
    return rows.length > 0;
  }
}
