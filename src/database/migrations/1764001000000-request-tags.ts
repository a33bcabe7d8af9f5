import { MigrationInterface, QueryRunner } from 'typeorm';
import { BUCKET_COUNT } from '../../modules/logs/latency-histogram';

/**
 * Request tags: each log row's tags (an object of strings, `{}` when none; a GIN index answers the containment and
 * key-exists filters), each key's default tags, and rollups per tag: the sums of the execution_log_rollups per tag key and
 * value instead of per prompt (a row with three tags counts once under each), with their errors per code. Existing logs have
 * no tags, so the new rollups start empty.
 */
export class RequestTags1764001000000 implements MigrationInterface {
  name = 'RequestTags1764001000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE execution_logs ADD COLUMN tags jsonb NOT NULL DEFAULT '{}'`);
    await q.query(`CREATE INDEX ix_execution_logs_tags ON execution_logs USING gin (tags)`);
    // The tenant's covering index carries the tags too, so counting the rows of a frequent tag (up to the list's cap)
    // and reading a period's edge hours filtered by a tag stay index-only range reads; the GIN index answers rare tags.
    await q.query(`DROP INDEX ix_execution_logs_tenant_created`);
    await q.query(
      `CREATE INDEX ix_execution_logs_tenant_created ON execution_logs (tenant_id, created_at, id)
       INCLUDE (endpoint_id, prompt_id, source, status, error_code, cached, latency_ms, input_tokens, output_tokens, cost_usd, tags)`,
    );
    await q.query(`ALTER TABLE api_keys ADD COLUMN default_tags jsonb NOT NULL DEFAULT '{}'`);
    const histogram = Array.from({ length: BUCKET_COUNT }, (_, i) => `h${i} integer NOT NULL DEFAULT 0`).join(', ');
    const key = `tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        tag_key varchar(40) NOT NULL,
        span varchar(4) NOT NULL CHECK (span IN ('hour', 'day')),
        start timestamptz NOT NULL,
        tag_value varchar(128) NOT NULL,
        endpoint_id uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE`;
    await q.query(`
      CREATE TABLE execution_log_tag_rollups (
        ${key},
        calls bigint NOT NULL,
        errors bigint NOT NULL,
        cache_hits bigint NOT NULL,
        input_tokens bigint NOT NULL,
        output_tokens bigint NOT NULL,
        cost_usd numeric(24, 9) NOT NULL,
        latency_max_ms integer NOT NULL,
        ${histogram},
        PRIMARY KEY (tenant_id, tag_key, span, start, tag_value, endpoint_id)
      )`);
    await q.query(`
      CREATE TABLE execution_log_tag_error_rollups (
        ${key},
        error_code varchar(64) NOT NULL,
        errors bigint NOT NULL,
        PRIMARY KEY (tenant_id, tag_key, span, start, tag_value, endpoint_id, error_code)
      )`);
    for (const table of ['execution_log_tag_rollups', 'execution_log_tag_error_rollups']) {
      await q.query(`CREATE INDEX ix_${table}_endpoint ON ${table} (endpoint_id)`);
      await q.query(`CREATE INDEX ix_${table}_span_start ON ${table} (span, start)`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE execution_log_tag_error_rollups`);
    await q.query(`DROP TABLE execution_log_tag_rollups`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN default_tags`);
    await q.query(`DROP INDEX ix_execution_logs_tags`);
    await q.query(`DROP INDEX ix_execution_logs_tenant_created`);
    await q.query(
      `CREATE INDEX ix_execution_logs_tenant_created ON execution_logs (tenant_id, created_at, id)
       INCLUDE (endpoint_id, prompt_id, source, status, error_code, cached, latency_ms, input_tokens, output_tokens, cost_usd)`,
    );
    await q.query(`ALTER TABLE execution_logs DROP COLUMN tags`);
  }
}
