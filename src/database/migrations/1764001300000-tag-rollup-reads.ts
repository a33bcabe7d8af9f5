import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reads of the tag rollups that stay index-only: their primary key carries `calls`, so ranking a key's values over a
 * period reads the index entries of its hours and days rather than the wide rows (their latency histograms); and an
 * index per tag value, so the executions of one value (or a few) are counted from that value's entries alone, however
 * many values its key has. Updating a rollup's `calls` then rewrites its index entries (no heap-only update).
 */
export class TagRollupReads1764001300000 implements MigrationInterface {
  name = 'TagRollupReads1764001300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE execution_log_tag_rollups DROP CONSTRAINT execution_log_tag_rollups_pkey`);
    await q.query(
      `ALTER TABLE execution_log_tag_rollups
         ADD PRIMARY KEY (tenant_id, tag_key, span, start, tag_value, endpoint_id) INCLUDE (calls)`,
    );
    await q.query(
      `CREATE INDEX ix_execution_log_tag_rollups_value ON execution_log_tag_rollups
         (tenant_id, tag_key, tag_value, span, start) INCLUDE (endpoint_id, calls)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_execution_log_tag_rollups_value`);
    await q.query(`ALTER TABLE execution_log_tag_rollups DROP CONSTRAINT execution_log_tag_rollups_pkey`);
    await q.query(
      `ALTER TABLE execution_log_tag_rollups ADD PRIMARY KEY (tenant_id, tag_key, span, start, tag_value, endpoint_id)`,
    );
  }
}
