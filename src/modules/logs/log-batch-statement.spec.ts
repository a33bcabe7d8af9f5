import { logBatchStatement, tagSumsStatement } from './log-batch-statement';
import { rollUpTags } from './log-rollup';
import { preparedLog } from '../../../test/support/log-entries';

const row = preparedLog;
const WINDOW = 'w0000000-0000-0000-0000-000000000000';

describe('logBatchStatement', () => {
  it('inserts every row, with the rollup upserts in its WITH clause, the rollups parameters first', () => {
    const { sql, params } = logBatchStatement([row(), row({ id: 'id-2' })], WINDOW);
    expect(sql).toMatch(/^WITH alongside_0 AS \(INSERT INTO execution_log_rollups AS r /);
    expect(sql).not.toContain('execution_log_error_rollups');
    expect(sql).toContain(') INSERT INTO execution_logs (id, tenant_id, endpoint_id,');
    // One parameter of rollup records, then 33 values per row.
    expect(params).toHaveLength(1 + 2 * 33);
    const groups = JSON.parse(params[0] as string) as { span: string; start: string; calls: number }[];
    expect(groups.map(({ span, start, calls }) => [span, start, calls])).toEqual([
      ['day', '2026-01-01T00:00:00.000Z', 2],
      ['hour', '2026-01-01T10:00:00.000Z', 2],
    ]);
    expect(params.slice(1, 3)).toEqual(['id-1', row().tenantId]);
    expect(params[34]).toBe('id-2');
    expect(sql).toContain('$2, $3,');
    expect(sql).toMatch(
      /\$25::jsonb, \$26, \$27::jsonb, \$28, \$29::jsonb, \$30, \$31, \$32::jsonb, \$33::jsonb, \$34\)/,
    );
    // Untagged rows name no window, and no window is registered.
    expect(params[33]).toBeNull();
    expect(sql).not.toContain('tag_sum_windows');
    expect(sql).not.toContain('execution_log_tag_rollups');
  });

  it('adds the error-code rollups when the batch has errors', () => {
    const { sql, params } = logBatchStatement([row({ status: 'error', errorCode: 'timeout' })], WINDOW);
    expect(sql).toContain('alongside_1 AS (INSERT INTO execution_log_error_rollups AS r ');
    expect(params).toHaveLength(2 + 33);
    expect(JSON.parse(params[1] as string)).toEqual([
      expect.objectContaining({ span: 'day', error_code: 'timeout', errors: 1 }),
      expect.objectContaining({ span: 'hour', error_code: 'timeout', errors: 1 }),
    ]);
  });

  it('names the window on its tagged rows and registers it per tenant with their period, adding no tag rollups', () => {
    const tags = { team: 'search' };
    const tagsJson = JSON.stringify(tags);
    const early = new Date('2026-01-01T10:00:01Z');
    const late = new Date('2026-01-01T10:00:09Z');
    const { sql, params, tagged } = logBatchStatement(
      [
        row({ tags, tagsJson, createdAt: late }),
        row({ id: 'id-2' }),
        row({ id: 'id-3', tags, tagsJson, createdAt: early }),
        row({ id: 'id-4', tags, tagsJson, source: 'Eval' }),
      ],
      WINDOW,
    );
    expect(sql).not.toContain('execution_log_tag_rollups');
    expect(sql).toContain('alongside_1 AS (INSERT INTO tag_sum_windows AS w (id, tenant_id, earliest, latest)');
    expect(sql).toContain('late = w.summed');
    expect(params[1]).toBe(WINDOW);
    expect(JSON.parse(params[2] as string)).toEqual([
      { tenant_id: row().tenantId, earliest: early.toISOString(), latest: late.toISOString() },
    ]);
    // The tagged rows counted in the statistics name the window; the untagged and the evaluation run's do not.
    const windows = [0, 1, 2, 3].map((i) => params[3 + 33 * i + 32]);
    expect(windows).toEqual([WINDOW, null, WINDOW, null]);
    expect(tagged.map((figures) => figures.row)).toEqual([
      expect.objectContaining({ id: 'id-1' }),
      expect.objectContaining({ id: 'id-3' }),
    ]);
  });
});

describe('tagSumsStatement', () => {
  const tagged = { team: 'search', env: 'prod' };
  const groups = rollUpTags([
    row({ tags: tagged, tagsJson: JSON.stringify(tagged), status: 'error', errorCode: 'timeout', latencyMs: 100 }),
    row({
      id: 'id-2',
      endpointId: 'endpoint-2',
      tags: { team: 'search' },
      tagsJson: '{"team":"search"}',
      latencyMs: 900,
    }),
  ]);

  it('claims the window and adds the sums of the tenants it claimed, per endpoint, with errors, and tenant-wide', () => {
    const { sql, params } = tagSumsStatement(groups, { window: WINDOW });
    expect(sql).toMatch(
      /^WITH alongside_0 AS \(UPDATE tag_sum_windows SET summed = true WHERE id = \$1::uuid AND NOT summed RETURNING tenant_id\)/,
    );
    expect(sql).toContain(
      'alongside_1 AS (INSERT INTO execution_log_tag_rollups AS r (tenant_id, tag_key, span, start,',
    );
    expect(sql).toContain('alongside_2 AS (INSERT INTO execution_log_tag_error_rollups AS r ');
    expect(sql).toContain('alongside_3 AS (INSERT INTO execution_log_tag_value_rollups AS r ');
    expect(sql).toContain('ON CONFLICT (tenant_id, tag_key, span, start, tag_value) DO UPDATE');
    expect(sql.match(/WHERE g\.tenant_id IN \(SELECT tenant_id FROM alongside_0\)/g)).toHaveLength(3);
    expect(sql).toMatch(/SELECT \(SELECT count\(\*\) FROM alongside_0\)::int AS claimed$/);
    expect(params[0]).toBe(WINDOW);
    const [tagSums, tagErrors, tenantWide] = params.slice(1).map((param) => JSON.parse(param as string));
    expect(tagSums.map((g: any) => [g.tag_key, g.span, g.tag_value, g.endpoint_id, g.calls])).toEqual([
      ['env', 'day', 'prod', row().endpointId, 1],
      ['env', 'hour', 'prod', row().endpointId, 1],
      ['team', 'day', 'search', row().endpointId, 1],
      ['team', 'day', 'search', 'endpoint-2', 1],
      ['team', 'hour', 'search', row().endpointId, 1],
      ['team', 'hour', 'search', 'endpoint-2', 1],
    ]);
    expect(tagErrors.map((g: any) => [g.tag_key, g.span, g.error_code, g.errors])).toEqual([
      ['env', 'day', 'timeout', 1],
      ['env', 'hour', 'timeout', 1],
      ['team', 'day', 'timeout', 1],
      ['team', 'hour', 'timeout', 1],
    ]);
    expect(tenantWide.map((g: any) => [g.tag_key, g.span, g.tag_value, g.calls, g.errors, g.latency_max_ms])).toEqual([
      ['env', 'day', 'prod', 1, 1, 100],
      ['env', 'hour', 'prod', 1, 1, 100],
      ['team', 'day', 'search', 2, 1, 900],
      ['team', 'hour', 'search', 2, 1, 900],
    ]);
    expect(Object.values(tenantWide[2].h as Record<string, number>).reduce((a, b) => a + b)).toBe(2);
  });

  it('adds them without a claim when the caller has claimed the window', () => {
    const { sql, params } = tagSumsStatement(groups);
    expect(sql).not.toContain('tag_sum_windows');
    expect(sql).not.toContain('alongside_0)');
    expect(sql).toMatch(/SELECT 1::int AS claimed$/);
    expect(params).toHaveLength(3);
  });
});
