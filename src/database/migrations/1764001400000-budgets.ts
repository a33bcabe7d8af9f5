import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Spend budgets: a limit in dollars per UTC day or month on what a key, an endpoint, a tag or the whole tenant spends.
 * One budget per scope and period (the unique constraint answers the 409); the spent totals are not stored here, they
 * are the execution logs' costs.
 */
export class Budgets1764001400000 implements MigrationInterface {
  name = 'Budgets1764001400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE budgets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        scope_type varchar(10) NOT NULL CHECK (scope_type IN ('key', 'endpoint', 'tenant', 'tag')),
        scope_ref varchar(200) NOT NULL,
        period varchar(5) NOT NULL CHECK (period IN ('day', 'month')),
        limit_usd numeric(13, 6) NOT NULL CHECK (limit_usd > 0 AND limit_usd <= 1000000),
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_budgets_scope_period UNIQUE (tenant_id, scope_type, scope_ref, period)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE budgets`);
  }
}
