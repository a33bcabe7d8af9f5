import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The names and slugs prompts had before a rename: `?prompt=` with one of them still reaches the prompt that last had
 * it, until a prompt of the endpoint takes that name or slug. One row per endpoint and former name or slug, owned by the
 * prompt that gave it up last.
 */
export class PromptFormerNames1764002200000 implements MigrationInterface {
  name = 'PromptFormerNames1764002200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE prompt_former_names (
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
        selector varchar(200) NOT NULL,
        prompt_id uuid NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
        retired_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (endpoint_id, selector)
      )`);
    await q.query(`CREATE INDEX ix_prompt_former_names_prompt ON prompt_former_names (prompt_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE prompt_former_names`);
  }
}
