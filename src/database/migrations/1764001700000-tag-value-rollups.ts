import { MigrationInterface, QueryRunner } from 'typeorm';
import { BUCKET_COUNT } from '../../modules/logs/latency-histogram';
import { tagValueRollupsSql } from '../../modules/logs/execution-log-rollups.repository';
import { HISTOGRAM_COLUMNS, SUM_COLUMNS } from '../../modules/logs/rollup-columns';

/**
 * Tenant-wide tag rollups: the sums of execution_log_tag_rollups over the endpoints, per tenant, tag key and value and
 * UTC hour or day. Groups by a key with many values, and every read of all of a key's values without an endpoint, read
 * one row per value and hour or day here instead of one per value, endpoint and hour or day (up to as many times fewer
 * as the tenant has endpoints). The log writer adds to them in the statement that adds to the tag rollups, and the
 * retention sweep removes them with those, so both always hold the same sums. A permanent endpoint delete takes the
 * endpoint's tag rollups out of them (a trigger, before its own rows go with the endpoint), their largest latency taken
 * again from the other endpoints' rollups. Errors per code are read from the tag error rollups, as before. The sums of
 * the existing tag rollups are copied here.
 */
export class TagValueRollups1764001700000 implements MigrationInterface {
  name = 'TagValueRollups1764001700000';

  async up(q: QueryRunner): Promise<void> {
    const histogram = Array.from({ length: BUCKET_COUNT }, (_, i) => `h${i} integer NOT NULL DEFAULT 0`).join(', ');
    await q.query(`
      CREATE TABLE execution_log_tag_value_rollups (
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        tag_key varchar(40) NOT NULL,
        span varchar(4) NOT NULL CHECK (span IN ('hour', 'day')),
        start timestamptz NOT NULL,
        tag_value varchar(128) NOT NULL,
        calls bigint NOT NULL,
        errors bigint NOT NULL,
        cache_hits bigint NOT NULL,
        input_tokens bigint NOT NULL,
        output_tokens bigint NOT NULL,
        cost_usd numeric(24, 9) NOT NULL,
        latency_max_ms integer NOT NULL,
        ${histogram},
        PRIMARY KEY (tenant_id, tag_key, span, start, tag_value) INCLUDE (calls)
      )`);
    // The retention sweep deletes by span and start, as in the other rollups.
    await q.query(
      `CREATE INDEX ix_execution_log_tag_value_rollups_span_start ON execution_log_tag_value_rollups (span, start)`,
    );
    await q.query(tagValueRollupsSql('true'));
    // The same tenant, key, value and hour or day as the tenant-wide rollup t.
    const same = (alias: string) =>
      ['tenant_id', 'tag_key', 'span', 'start', 'tag_value'].map((c) => `${alias}.${c} = t.${c}`).join(' AND ');
    await q.query(`
      CREATE FUNCTION endpoint_tag_value_rollups_forget() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE execution_log_tag_value_rollups t
        SET ${[...SUM_COLUMNS, ...HISTOGRAM_COLUMNS].map((c) => `${c} = t.${c} - o.${c}`).join(', ')},
          latency_max_ms = coalesce((SELECT max(r.latency_max_ms) FROM execution_log_tag_rollups r
            WHERE ${same('r')} AND r.endpoint_id <> OLD.id), 0)
        FROM execution_log_tag_rollups o
        WHERE o.tenant_id = OLD.tenant_id AND o.endpoint_id = OLD.id AND ${same('o')};
        DELETE FROM execution_log_tag_value_rollups t USING execution_log_tag_rollups o
        WHERE o.tenant_id = OLD.tenant_id AND o.endpoint_id = OLD.id AND ${same('o')} AND t.calls = 0;
        RETURN OLD;
      END $$`);
    await q.query(`
      CREATE TRIGGER tr_endpoint_tag_value_rollups_forget BEFORE DELETE ON endpoints
      FOR EACH ROW EXECUTE FUNCTION endpoint_tag_value_rollups_forget()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tr_endpoint_tag_value_rollups_forget ON endpoints`);
    await q.query(`DROP FUNCTION endpoint_tag_value_rollups_forget()`);
    await q.query(`DROP TABLE execution_log_tag_value_rollups`);
  }
}
