import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Feedback scores: the score configs a tenant declares (what may be scored, and the type and range of its values), and
 * one score per execution log row and score name. A score keeps its execution's endpoint, prompt, version, key and
 * time (executed_at) so statistics count it in its execution's hour without reading the log row. Booleans are stored
 * as 0/1 and numbers as they are in value_number; categories in value_category. Scores go with their log row
 * (retention, permanent endpoint delete) and with their tenant; a config a score uses cannot be deleted (NO ACTION,
 * checked at the end of the statement, so deleting a tenant removes both).
 */
export class FeedbackScores1764001100000 implements MigrationInterface {
  name = 'FeedbackScores1764001100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE score_configs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        name varchar(64) NOT NULL,
        data_type varchar(12) NOT NULL CHECK (data_type IN ('boolean', 'numeric', 'categorical')),
        minimum double precision,
        maximum double precision,
        categories jsonb,
        description text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_score_configs_tenant_name UNIQUE (tenant_id, name),
        CONSTRAINT ck_score_configs_range CHECK (
          data_type <> 'numeric' OR (minimum IS NOT NULL AND maximum IS NOT NULL AND minimum < maximum)),
        CONSTRAINT ck_score_configs_categories CHECK (data_type <> 'categorical' OR categories IS NOT NULL)
      )`);
    await q.query(`
      CREATE TABLE execution_scores (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        log_id uuid NOT NULL REFERENCES execution_logs (id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL,
        prompt_id uuid,
        prompt_version integer,
        key_id uuid,
        executed_at timestamptz NOT NULL,
        name varchar(64) NOT NULL,
        config_id uuid NOT NULL REFERENCES score_configs (id),
        data_type varchar(12) NOT NULL CHECK (data_type IN ('boolean', 'numeric', 'categorical')),
        value_number double precision,
        value_category varchar(64),
        comment text,
        source varchar(12) NOT NULL CHECK (source IN ('api', 'annotation', 'eval')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        -- One value per execution and score name; also the index of a log row's scores (log detail, the list's filter).
        CONSTRAINT uq_execution_scores_log_name UNIQUE (log_id, name),
        CONSTRAINT ck_execution_scores_value CHECK (
          (data_type = 'categorical' AND value_category IS NOT NULL AND value_number IS NULL)
          OR (data_type <> 'categorical' AND value_number IS NOT NULL AND value_category IS NULL))
      )`);
    // A tenant's scores of one name over a period, with what statistics group and average by, as an index-only read.
    await q.query(
      `CREATE INDEX ix_execution_scores_tenant_name_executed ON execution_scores (tenant_id, name, executed_at)
       INCLUDE (log_id, endpoint_id, prompt_id, prompt_version, key_id, data_type, value_number, value_category)`,
    );
    await q.query(`CREATE INDEX ix_execution_scores_tenant_executed ON execution_scores (tenant_id, executed_at)`);
    // Whether a config is in use (renaming, changing the type or deleting it is then refused).
    await q.query(`CREATE INDEX ix_execution_scores_config ON execution_scores (config_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE execution_scores`);
    await q.query(`DROP TABLE score_configs`);
  }
}
