import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What an output field's values must be besides their type: allowed values (`enum`), bounds (`minimum`, `maximum`), a
 * longest text (`max_length`), and the nested definitions of object fields (`properties`) and array fields (`items`)
 * as JSON. Existing fields keep their rows and get none of them.
 */
export class OutputFieldConstraints1764001900000 implements MigrationInterface {
  name = 'OutputFieldConstraints1764001900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE output_fields ADD COLUMN enum jsonb`);
    await q.query(`ALTER TABLE output_fields ADD COLUMN minimum double precision`);
    await q.query(`ALTER TABLE output_fields ADD COLUMN maximum double precision`);
    await q.query(`ALTER TABLE output_fields ADD COLUMN max_length integer CHECK (max_length > 0)`);
    await q.query(`ALTER TABLE output_fields ADD COLUMN properties jsonb`);
    await q.query(`ALTER TABLE output_fields ADD COLUMN items jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const column of ['items', 'properties', 'max_length', 'maximum', 'minimum', 'enum']) {
      await q.query(`ALTER TABLE output_fields DROP COLUMN ${column}`);
    }
  }
}
