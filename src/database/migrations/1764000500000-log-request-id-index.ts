import { MigrationInterface, QueryRunner } from 'typeorm';

/** A call's X-Request-Id finds its execution log row: GET /admin/v1/logs?requestId=… looks it up by this index. */
export class LogRequestIdIndex1764000500000 implements MigrationInterface {
  name = 'LogRequestIdIndex1764000500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX ix_execution_logs_tenant_request ON execution_logs (tenant_id, request_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_execution_logs_tenant_request`);
  }
}
