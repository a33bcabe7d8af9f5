import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An endpoint may split its traffic between prompts (a JSON object, null when it does not), and each execution log
 * records how its prompt was assigned (`default`, `pinned` or `split`; null when none was selected). Both columns are
 * nullable without a default: adding them rewrites no table.
 */
export class TrafficSplit1764000800000 implements MigrationInterface {
  name = 'TrafficSplit1764000800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE endpoints ADD COLUMN traffic_split jsonb`);
    await q.query(`ALTER TABLE execution_logs ADD COLUMN assignment varchar`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE execution_logs DROP COLUMN assignment`);
    await q.query(`ALTER TABLE endpoints DROP COLUMN traffic_split`);
  }
}
