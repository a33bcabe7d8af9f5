import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Datasets for evaluations: named sets of inputs (with an expected output and tags) that belong to an endpoint, and
 * the checks run on each output. Items are immutable rows: adding items and deleting one each add 1 to the dataset's
 * `version`, and an item is part of version V when added_in_version <= V and (removed_in_version is null or
 * removed_in_version > V), so a run reads the items as they were at the version it started on. `ordinal` is an item's
 * position in the call that added it: items are listed by (added_in_version, ordinal), the order they were added in.
 * `item_count` is the number of items at the current version, kept with `version` under the dataset's row lock.
 */
export class Datasets1764001500000 implements MigrationInterface {
  name = 'Datasets1764001500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE datasets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        description text NOT NULL DEFAULT '',
        checks jsonb NOT NULL DEFAULT '[]',
        version integer NOT NULL DEFAULT 0 CHECK (version >= 0),
        item_count integer NOT NULL DEFAULT 0 CHECK (item_count >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_datasets_endpoint_name UNIQUE (endpoint_id, name)
      )`);
    await q.query(`
      CREATE TABLE dataset_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        dataset_id uuid NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
        inputs jsonb NOT NULL,
        expected_output jsonb,
        tags jsonb NOT NULL DEFAULT '{}',
        added_in_version integer NOT NULL,
        ordinal integer NOT NULL,
        removed_in_version integer,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ck_dataset_items_versions CHECK (removed_in_version IS NULL OR removed_in_version > added_in_version)
      )`);
    await q.query(
      `CREATE INDEX ix_dataset_items_dataset_version ON dataset_items (dataset_id, added_in_version, ordinal)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE dataset_items`);
    await q.query(`DROP TABLE datasets`);
  }
}
