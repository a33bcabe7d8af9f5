import { MigrationInterface, QueryRunner } from 'typeorm';
import { scoreDayRollupsSql, scoreHourRollupsSql } from '../../modules/scores/score-rollups.repository';

/**
 * Rollups of the feedback scores, so the statistics of a score over days read sums instead of every score: per tenant,
 * endpoint, prompt (the zero uuid for none), UTC hour (span 'hour') or day (span 'day') of the execution, score name
 * and category ('' for boolean and numeric scores), the count, sum and sum of squares of the values (booleans as 0 and
 * 1). A score's hour and day are summed again in the transaction that records it. They go with their endpoint or tenant (ON DELETE CASCADE) and with
 * the logs (the retention sweep). The existing scores are summed into them here.
 */
export class ScoreRollups1764001200000 implements MigrationInterface {
  name = 'ScoreRollups1764001200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE execution_score_rollups (
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
        prompt_id uuid NOT NULL,
        span varchar(4) NOT NULL CHECK (span IN ('hour', 'day')),
        start timestamptz NOT NULL,
        name varchar(64) NOT NULL,
        category varchar(64) NOT NULL,
        count bigint NOT NULL,
        sum double precision NOT NULL,
        sum_of_squares double precision NOT NULL,
        PRIMARY KEY (tenant_id, name, span, start, endpoint_id, prompt_id, category)
      )`);
    await q.query(`CREATE INDEX ix_execution_score_rollups_endpoint ON execution_score_rollups (endpoint_id)`);
    await q.query(`CREATE INDEX ix_execution_score_rollups_span_start ON execution_score_rollups (span, start)`);
    await q.query(scoreHourRollupsSql('true'));
    await q.query(scoreDayRollupsSql('true'));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE execution_score_rollups`);
  }
}
