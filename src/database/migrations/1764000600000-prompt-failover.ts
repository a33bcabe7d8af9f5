import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Retries and fallback models: a prompt and each of its versions record how many times each model is retried and the
 * fallback models tried after its own; an execution log records every model call it made. Rows written before have no
 * retries, no fallback models and an empty attempt list; constant defaults add the columns without rewriting a table.
 */
export class PromptFailover1764000600000 implements MigrationInterface {
  name = 'PromptFailover1764000600000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['prompts', 'prompt_versions']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN retries smallint NOT NULL DEFAULT 0`);
      await q.query(`ALTER TABLE ${table} ADD COLUMN fallback_models jsonb NOT NULL DEFAULT '[]'`);
    }
    await q.query(`ALTER TABLE execution_logs ADD COLUMN attempts jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE execution_logs DROP COLUMN attempts`);
    for (const table of ['prompt_versions', 'prompts']) {
      await q.query(`ALTER TABLE ${table} DROP COLUMN fallback_models`);
      await q.query(`ALTER TABLE ${table} DROP COLUMN retries`);
    }
  }
}
