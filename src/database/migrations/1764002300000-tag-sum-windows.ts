import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tag sums written per window instead of per log batch. An instance sums its tagged rows' tag rollups in memory for a
 * few seconds (a window) and adds them to the tag rollups once, when the window closes; each row it stores in the
 * meantime names its window (`tag_window`), and the statement that stores a batch registers the window for each tenant
 * of the batch, with the earliest and latest time of the tenant's rows in it. A window's sums are added by whoever
 * claims it first (`summed`): its instance when it closes, or any instance summing an abandoned window's rows again.
 * Until then the reads take the hours from the earliest unsummed window on from the rows.
 *
 * `late` is set when a batch registers a window that is already summed; the check refuses that batch, so no row can
 * join a window whose sums are written (its writer stores the rows again in a window of its own).
 */
export class TagSumWindows1764002300000 implements MigrationInterface {
  name = 'TagSumWindows1764002300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE execution_logs ADD COLUMN tag_window uuid`);
    await q.query(`
      CREATE TABLE tag_sum_windows (
        id uuid NOT NULL,
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        earliest timestamptz NOT NULL,
        latest timestamptz NOT NULL,
        touched_at timestamptz NOT NULL DEFAULT now(),
        summed boolean NOT NULL DEFAULT false,
        late boolean NOT NULL DEFAULT false CHECK (NOT late),
        PRIMARY KEY (id, tenant_id)
      )`);
    // The reads' question (the earliest unsummed time of a tenant) and the sweep's (the abandoned windows).
    await q.query(
      `CREATE INDEX ix_tag_sum_windows_unsummed ON tag_sum_windows (tenant_id, earliest) WHERE NOT summed`,
    );
    await q.query(`CREATE INDEX ix_tag_sum_windows_touched ON tag_sum_windows (touched_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE tag_sum_windows`);
    await q.query(`ALTER TABLE execution_logs DROP COLUMN tag_window`);
  }
}
