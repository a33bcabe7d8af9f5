import { logBatchStatement } from './log-batch-statement';
import { preparedLog } from '../../../test/support/log-entries';

const row = preparedLog;

describe('logBatchStatement', () => {
  it('inserts every row, with the rollup upserts in its WITH clause, the rollups parameters first', () => {
    const { sql, params } = logBatchStatement([row(), row({ id: 'id-2' })]);
    expect(sql).toMatch(/^WITH alongside_0 AS \(INSERT INTO execution_log_rollups AS r /);
    expect(sql).not.toContain('execution_log_error_rollups');
    expect(sql).toContain(') INSERT INTO execution_logs (id, tenant_id, endpoint_id,');
    // One parameter of rollup records, then 32 values per row.
    expect(params).toHaveLength(1 + 2 * 32);
    const groups = JSON.parse(params[0] as string) as { span: string; start: string; calls: number }[];
    expect(groups.map(({ span, start, calls }) => [span, start, calls])).toEqual([
      ['day', '2026-01-01T00:00:00.000Z', 2],
      ['hour', '2026-01-01T10:00:00.000Z', 2],
    ]);
    expect(params.slice(1, 3)).toEqual(['id-1', row().tenantId]);
    expect(params[33]).toBe('id-2');
    expect(sql).toContain('$2, $3,');
    expect(sql).toMatch(/\$25::jsonb, \$26, \$27::jsonb, \$28, \$29::jsonb, \$30, \$31, \$32::jsonb, \$33::jsonb\)/);
    expect(sql).not.toContain('execution_log_tag_rollups');
  });

  it('adds the error-code rollups when the batch has errors', () => {
    const { sql, params } = logBatchStatement([row({ status: 'error', errorCode: 'timeout' })]);
    expect(sql).toContain('alongside_1 AS (INSERT INTO execution_log_error_rollups AS r ');
    expect(params).toHaveLength(2 + 32);
    expect(JSON.parse(params[1] as string)).toEqual([
      expect.objectContaining({ span: 'day', error_code: 'timeout', errors: 1 }),
      expect.objectContaining({ span: 'hour', error_code: 'timeout', errors: 1 }),
    ]);
  });

  it('adds the rows to the tag rollups once under each of their tags', () => {
    const tagged = { team: 'search', env: 'prod' };
    const { sql, params } = logBatchStatement([
      row({ tags: tagged, tagsJson: JSON.stringify(tagged), status: 'error', errorCode: 'timeout' }),
      row({ id: 'id-2', tags: { team: 'search' }, tagsJson: '{"team":"search"}' }),
    ]);
    expect(sql).toContain('INSERT INTO execution_log_tag_rollups AS r (tenant_id, tag_key, span, start, tag_value,');
    expect(sql).toContain('INSERT INTO execution_log_tag_error_rollups AS r ');
    const [, , tagSums, tagErrors] = params.slice(0, 4).map((param) => JSON.parse(param as string));
    expect(tagSums.map((g: any) => [g.tag_key, g.span, g.tag_value, g.calls])).toEqual([
      ['env', 'day', 'prod', 1],
      ['env', 'hour', 'prod', 1],
      ['team', 'day', 'search', 2],
      ['team', 'hour', 'search', 2],
    ]);
    expect(tagErrors.map((g: any) => [g.tag_key, g.span, g.error_code, g.errors])).toEqual([
      ['env', 'day', 'timeout', 1],
      ['env', 'hour', 'timeout', 1],
      ['team', 'day', 'timeout', 1],
      ['team', 'hour', 'timeout', 1],
    ]);
    expect(params.at(-1)).toBe('{"team":"search"}');
  });

  it('adds them to the tenant-wide tag rollups once per value over the endpoints, without errors per code', () => {
    const tags = { team: 'search' };
    const tagsJson = JSON.stringify(tags);
    const { sql, params } = logBatchStatement([
      row({ tags, tagsJson, latencyMs: 100 }),
      row({ id: 'id-2', endpointId: 'endpoint-2', tags, tagsJson, latencyMs: 900, status: 'error', errorCode: 'x' }),
    ]);
    expect(sql).toContain(
      'INSERT INTO execution_log_tag_value_rollups AS r (tenant_id, tag_key, span, start, tag_value, calls,',
    );
    expect(sql).toContain('ON CONFLICT (tenant_id, tag_key, span, start, tag_value) DO UPDATE');
    const sums = params.map((param) => (typeof param === 'string' && param.startsWith('[') ? JSON.parse(param) : []));
    const tenantWide = sums.find((records: any[]) => records.length && !('endpoint_id' in records[0]));
    expect(tenantWide.map((g: any) => [g.tag_key, g.span, g.tag_value, g.calls, g.errors, g.latency_max_ms])).toEqual([
      ['team', 'day', 'search', 2, 1, 900],
      ['team', 'hour', 'search', 2, 1, 900],
    ]);
    expect(Object.values(tenantWide[0].h as Record<string, number>).reduce((a, b) => a + b)).toBe(2);
  });
});
