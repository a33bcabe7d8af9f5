import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Evaluation runs record each check's result as a score on the item's log row whether or not the tenant declared a
 * score config of that name: those scores (source `eval`) may have no config. Every other score still has one.
 */
export class EvalScores1764002100000 implements MigrationInterface {
  name = 'EvalScores1764002100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE execution_scores ALTER COLUMN config_id DROP NOT NULL`);
    await q.query(
      `ALTER TABLE execution_scores ADD CONSTRAINT ck_execution_scores_config
       CHECK (config_id IS NOT NULL OR source = 'eval')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM execution_scores WHERE config_id IS NULL`);
    await q.query(`ALTER TABLE execution_scores DROP CONSTRAINT ck_execution_scores_config`);
    await q.query(`ALTER TABLE execution_scores ALTER COLUMN config_id SET NOT NULL`);
  }
}
