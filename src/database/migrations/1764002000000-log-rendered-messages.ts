import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Execution logs keep the messages a rendered prompt made, `{role, content}` each. Null when the prompt made one user
 * message of its whole text (every row written before), which reads back as that message; a nullable column is added
 * without rewriting the table.
 */
export class LogRenderedMessages1764002000000 implements MigrationInterface {
  name = 'LogRenderedMessages1764002000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE execution_logs ADD COLUMN rendered_messages jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE execution_logs DROP COLUMN rendered_messages`);
  }
}
