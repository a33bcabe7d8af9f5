import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a log row says of how the answer went out: whether it was streamed, the time to its first piece, and why the
 * model stopped.
 */
export class LogStreaming1764000700000 implements MigrationInterface {
  name = 'LogStreaming1764000700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE execution_logs ADD COLUMN streamed boolean NOT NULL DEFAULT false, ADD COLUMN ttft_ms integer, ADD COLUMN finish_reason varchar(32)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE execution_logs DROP COLUMN streamed, DROP COLUMN ttft_ms, DROP COLUMN finish_reason`);
  }
}
