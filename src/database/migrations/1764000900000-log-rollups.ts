import { MigrationInterface, QueryRunner } from 'typeorm';
import { BUCKET_COUNT } from '../../modules/logs/latency-histogram';
import { rollupsFromLogsSql } from '../../modules/logs/execution-log-rollups.repository';

/**
 * Rollups of the execution logs, so the statistics read sums instead of every row: per tenant, endpoint, prompt (the
 * zero uuid for none) and UTC hour (span 'hour') or day (span 'day'), the counts, token and cost sums, the largest
 * latency and a latency histogram (h0 … h144, see latency-histogram.ts), and the errors per code in a table of their
 * own. They go with their endpoint or tenant (ON DELETE CASCADE, read through the endpoint_id index) and with the
 * logs they sum (the retention sweep). The existing logs are summed into them here.
 */
export class LogRollups1764000900000 implements MigrationInterface {
  name = 'LogRollups1764000900000';

  async up(q: QueryRunner): Promise<void> {
    const histogram = Array.from({ length: BUCKET_COUNT }, (_, i) => `h${i} integer NOT NULL DEFAULT 0`).join(', ');
    const key = `tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
        prompt_id uuid NOT NULL,
        span varchar(4) NOT NULL CHECK (span IN ('hour', 'day')),
        start timestamptz NOT NULL`;
    await q.query(`
      CREATE TABLE execution_log_rollups (
        ${key},
        calls bigint NOT NULL,
        errors bigint NOT NULL,
        cache_hits bigint NOT NULL,
        input_tokens bigint NOT NULL,
        output_tokens bigint NOT NULL,
        cost_usd numeric(24, 9) NOT NULL,
        latency_max_ms integer NOT NULL,
        ${histogram},
        PRIMARY KEY (tenant_id, span, start, endpoint_id, prompt_id)
      )`);
    await q.query(`
      CREATE TABLE execution_log_error_rollups (
        ${key},
        error_code varchar(64) NOT NULL,
        errors bigint NOT NULL,
        PRIMARY KEY (tenant_id, span, start, endpoint_id, prompt_id, error_code)
      )`);
    for (const table of ['execution_log_rollups', 'execution_log_error_rollups']) {
      await q.query(`CREATE INDEX ix_${table}_endpoint ON ${table} (endpoint_id)`);
      await q.query(`CREATE INDEX ix_${table}_span_start ON ${table} (span, start)`);
    }
    for (const sql of rollupsFromLogsSql('')) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE execution_log_error_rollups`);
    await q.query(`DROP TABLE execution_log_rollups`);
  }
}
