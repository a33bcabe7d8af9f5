import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Execution logs record which of their large fields (inputs, rendered_prompt, raw_response, parsed_output) were cut to
 * the size limit. Rows written before have nothing cut and read as an empty list; a constant default adds the column
 * without rewriting the table.
 */
export class LogTruncatedFields1764000400000 implements MigrationInterface {
  name = 'LogTruncatedFields1764000400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE execution_logs ADD COLUMN truncated_fields text[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE execution_logs DROP COLUMN truncated_fields`);
  }
}
