import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Paged admin lists (GET /keys, GET /endpoints): each reads its page as a range of an index in the list's own order,
 * (created_at, id) within the tenant, so the first page of 100,000 keys costs the same as that of three, and a deep
 * page skips index entries rather than sorting the tenant's rows. The active and the soft-deleted endpoints are listed
 * separately (`?deleted=true`), so each has its own partial index.
 */
export class ListIndexes1764000300000 implements MigrationInterface {
  name = 'ListIndexes1764000300000';

  async up(q: QueryRunner): Promise<void> {
    // Supersedes ix_api_keys_tenant (tenant_id, created_at), which left the id tiebreak to a sort.
    await q.query(`CREATE INDEX ix_api_keys_tenant_created ON api_keys (tenant_id, created_at, id)`);
    await q.query(`DROP INDEX ix_api_keys_tenant`);
    await q.query(`CREATE INDEX ix_endpoints_tenant_created ON endpoints (tenant_id, created_at, id) WHERE deleted_at IS NULL`);
    await q.query(
      `CREATE INDEX ix_endpoints_tenant_deleted_created ON endpoints (tenant_id, created_at, id) WHERE deleted_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_endpoints_tenant_deleted_created`);
    await q.query(`DROP INDEX ix_endpoints_tenant_created`);
    await q.query(`CREATE INDEX ix_api_keys_tenant ON api_keys (tenant_id, created_at)`);
    await q.query(`DROP INDEX ix_api_keys_tenant_created`);
  }
}
