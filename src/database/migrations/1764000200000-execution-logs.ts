import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Execution logs. Rows go with their endpoint on a permanent delete (ON DELETE
 * CASCADE); prompt_id has no foreign key, so a log outlives changes to prompts. The indexes match the GET /logs
 * filters, each ending in (created_at, id), read backwards for newest first, so a filtered page is an index range read
 * (ascending keys put new rows at the end of each tenant's or endpoint's range, which keeps index pages full);
 * the stats read the same indexes by time range. created_at alone serves the retention sweep. PostgreSQL 11+ (INCLUDE).
 */
export class ExecutionLogs1764000200000 implements MigrationInterface {
  name = 'ExecutionLogs1764000200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE execution_logs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
        prompt_id uuid,
        prompt_version integer,
        source varchar(10) NOT NULL CHECK (source IN ('Api', 'TestPage', 'Internal')),
        key_id uuid,
        key_environment varchar(10) CHECK (key_environment IN ('live', 'test')),
        request_id varchar(128) NOT NULL,
        status varchar(10) NOT NULL CHECK (status IN ('success', 'error')),
        http_status smallint NOT NULL,
        error_code varchar(64),
        cached boolean NOT NULL DEFAULT false,
        llm_model varchar(200),
        input_tokens integer,
        output_tokens integer,
        cost_usd numeric(18, 9),
        latency_ms integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        inputs jsonb,
        rendered_prompt text,
        raw_response text,
        parsed_output jsonb,
        error_message text
      )`);
    // Each index covers the filter columns of GET /logs and the figures of GET /stats (INCLUDE), so counting, choosing
    // a page's ids and aggregating are index-only range reads; only the page's own rows are fetched from the table.
    await q.query(
      `CREATE INDEX ix_execution_logs_tenant_created ON execution_logs (tenant_id, created_at, id)
       INCLUDE (endpoint_id, prompt_id, source, status, error_code, cached, latency_ms, input_tokens, output_tokens, cost_usd)`,
    );
    // Leads with endpoint_id (globally unique) so the ON DELETE CASCADE of an endpoint is an index read too.
    await q.query(
      `CREATE INDEX ix_execution_logs_endpoint_created ON execution_logs (endpoint_id, created_at, id)
       INCLUDE (tenant_id, prompt_id, source, status, error_code, cached, latency_ms, input_tokens, output_tokens, cost_usd)`,
    );
    await q.query(
      `CREATE INDEX ix_execution_logs_prompt_created ON execution_logs (prompt_id, created_at, id)
       INCLUDE (tenant_id, endpoint_id, source, status) WHERE prompt_id IS NOT NULL`,
    );
    // Rare values (TestPage, Internal, error) would otherwise mean walking much of the tenant index.
    await q.query(
      `CREATE INDEX ix_execution_logs_tenant_source_created ON execution_logs (tenant_id, source, created_at, id)
       INCLUDE (endpoint_id, prompt_id, status)`,
    );
    await q.query(
      `CREATE INDEX ix_execution_logs_tenant_status_created ON execution_logs (tenant_id, status, created_at, id)
       INCLUDE (endpoint_id, prompt_id, source, error_code)`,
    );
    await q.query(`CREATE INDEX ix_execution_logs_created ON execution_logs (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE execution_logs`);
  }
}
