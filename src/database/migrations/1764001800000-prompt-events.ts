import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A prompt's and an endpoint's history: one row per change (a prompt created, saved as a new version, promoted,
 * demoted, made the default, archived, unarchived, restored from a version, duplicated, forced past the promotion
 * gate, or the endpoint's traffic split changed), written in the transaction of the change it records. `prompt_id` is
 * null for a change of the endpoint itself (its split). `key_id` is the key that made the change (null when no key
 * did, e.g. the command line); the key's name is read from the keys when listing, so a renamed key shows its name.
 * `seq` orders rows written at the same instant (a forced promotion writes two). Both lists read
 * newest first by prompt or by endpoint: one index each, in that order.
 */
export class PromptEvents1764001800000 implements MigrationInterface {
  name = 'PromptEvents1764001800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE prompt_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
        prompt_id uuid REFERENCES prompts (id) ON DELETE CASCADE,
        version_number integer CHECK (version_number >= 1),
        type varchar(20) NOT NULL CHECK (type IN ('created', 'saved', 'promoted', 'demoted', 'default_set',
          'archived', 'unarchived', 'restored', 'duplicated', 'split_changed', 'gate_forced')),
        key_id uuid,
        details jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(
      `CREATE INDEX ix_prompt_events_prompt ON prompt_events (prompt_id, created_at DESC, seq DESC)
       WHERE prompt_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX ix_prompt_events_endpoint ON prompt_events (endpoint_id, created_at DESC, seq DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE prompt_events`);
  }
}
