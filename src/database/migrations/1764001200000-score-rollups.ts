import { MigrationInterface, QueryRunner } from 'typeorm';
import { scoreRollupSelectSql } from '../../modules/scores/score-rollups.repository';

/**
 * Hourly rollups of the feedback scores, so the statistics of a score over days read sums instead of every score: per
 * tenant, endpoint, prompt (the zero uuid for none), UTC hour of the execution, score name and category ('' for
 * boolean and numeric scores), the count, sum and sum of squares of the values (booleans as 0 and 1). A score's cell is
 * summed again in the transaction that records it. They go with their endpoint or tenant (ON DELETE CASCADE) and with
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
        hour timestamptz NOT NULL,
        name varchar(64) NOT NULL,
        category varchar(64) NOT NULL,
        count bigint NOT NULL,
        sum double precision NOT NULL,
        sum_of_squares double precision NOT NULL,
        PRIMARY KEY (tenant_id, name, hour, endpoint_id, prompt_id, category)
      )`);
    await q.query(`CREATE INDEX ix_execution_score_rollups_endpoint ON execution_score_rollups (endpoint_id)`);
    await q.query(`CREATE INDEX ix_execution_score_rollups_hour ON execution_score_rollups (hour)`);
    await q.query(`
      INSERT INTO execution_score_rollups (tenant_id, endpoint_id, prompt_id, hour, name, category, count, sum,
        sum_of_squares)
      ${scoreRollupSelectSql('true')}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE execution_score_rollups`);
  }
}
