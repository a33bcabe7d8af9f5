import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Evaluation runs. `eval_runs` holds a run of a dataset (at the version it started on) with a candidate prompt version
 * and an optional baseline, and the instance that runs it (`owner`, until `owner_until`, a lease it renews; another
 * instance takes the run over once it expires); `eval_run_items` one row per dataset item, repeat and side (candidate or baseline), the unit
 * of work an instance claims: `pending`, then `claimed` by one instance until `claimed_until` (a lease it renews while
 * the item runs; an expired claim is claimable again), then `done` with its output and check results. `eval_answers`
 * keeps the answers of evaluated prompt versions by a hash of the version, its settings, the inputs and the repeat, so
 * an unchanged side runs again without a provider call. Execution logs take the source `Eval`; endpoints take their
 * promotion gate, and prompt versions record how a promotion passed it.
 */
export class EvaluationRuns1764001600000 implements MigrationInterface {
  name = 'EvaluationRuns1764001600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE eval_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
        dataset_id uuid NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
        dataset_version integer NOT NULL,
        key_id uuid,
        candidate_prompt_id uuid NOT NULL,
        candidate_version integer NOT NULL,
        baseline_prompt_id uuid,
        baseline_version integer,
        concurrency smallint NOT NULL CHECK (concurrency BETWEEN 1 AND 10),
        repeats smallint NOT NULL CHECK (repeats BETWEEN 1 AND 5),
        fresh boolean NOT NULL,
        status varchar(10) NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
        summary jsonb,
        error_message text,
        owner varchar(64),
        owner_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX ix_eval_runs_endpoint_created ON eval_runs (endpoint_id, created_at, id)`);
    await q.query(`CREATE INDEX ix_eval_runs_dataset_created ON eval_runs (dataset_id, created_at)`);
    // The runs with work left, which every instance polls.
    await q.query(`CREATE INDEX ix_eval_runs_active ON eval_runs (created_at) WHERE status IN ('queued', 'running')`);
    await q.query(`
      CREATE TABLE eval_run_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        run_id uuid NOT NULL REFERENCES eval_runs (id) ON DELETE CASCADE,
        item_id uuid NOT NULL,
        position integer NOT NULL,
        repeat smallint NOT NULL,
        side varchar(9) NOT NULL CHECK (side IN ('candidate', 'baseline')),
        inputs jsonb NOT NULL,
        expected_output jsonb,
        status varchar(7) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'claimed', 'done')),
        claimed_by varchar(64),
        claimed_until timestamptz,
        output jsonb,
        passed boolean,
        checks jsonb,
        error_message text,
        latency_ms integer,
        cost_usd numeric(18, 9),
        judge_cost_usd numeric(18, 9),
        cached boolean,
        log_id uuid,
        finished_at timestamptz,
        CONSTRAINT uq_eval_run_items_work UNIQUE (run_id, position, repeat, side)
      )`);
    // The claim reads a run's open rows in order; done rows drop out of this index.
    await q.query(
      `CREATE INDEX ix_eval_run_items_open ON eval_run_items (run_id, position, repeat, side) WHERE status <> 'done'`,
    );
    await q.query(`
      CREATE TABLE eval_answers (
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        answer_key char(64) NOT NULL,
        output jsonb,
        latency_ms integer NOT NULL,
        cost_usd numeric(18, 9),
        log_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, answer_key)
      )`);
    await q.query(`ALTER TABLE execution_logs DROP CONSTRAINT execution_logs_source_check`);
    await q.query(
      `ALTER TABLE execution_logs ADD CONSTRAINT execution_logs_source_check
       CHECK (source IN ('Api', 'TestPage', 'Internal', 'Eval'))`,
    );
    await q.query(`ALTER TABLE endpoints ADD COLUMN promotion_gate jsonb`);
    await q.query(`ALTER TABLE prompt_versions ADD COLUMN gate jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE prompt_versions DROP COLUMN gate`);
    await q.query(`ALTER TABLE endpoints DROP COLUMN promotion_gate`);
    await q.query(`DELETE FROM execution_logs WHERE source = 'Eval'`);
    await q.query(`ALTER TABLE execution_logs DROP CONSTRAINT execution_logs_source_check`);
    await q.query(
      `ALTER TABLE execution_logs ADD CONSTRAINT execution_logs_source_check
       CHECK (source IN ('Api', 'TestPage', 'Internal'))`,
    );
    await q.query(`DROP TABLE eval_answers`);
    await q.query(`DROP TABLE eval_run_items`);
    await q.query(`DROP TABLE eval_runs`);
  }
}
