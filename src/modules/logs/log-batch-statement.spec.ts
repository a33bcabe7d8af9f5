import { logBatchStatement } from './log-batch-statement';
import { preparedLog } from '../../../test/support/log-entries';

const row = preparedLog;

describe('logBatchStatement', () => {
  it('inserts every row, with the rollup upserts in its WITH clause, the rollups parameters first', () => {
    const { sql, params } = logBatchStatement([row(), row({ id: 'id-2' })]);
    expect(sql).toMatch(/^WITH alongside_0 AS \(INSERT INTO execution_log_rollups AS r /);
    expect(sql).not.toContain('execution_log_error_rollups');
    expect(sql).toContain(') INSERT INTO execution_logs (id, tenant_id, endpoint_id,');
    // One parameter of rollup records, then 30 values per row.
    expect(params).toHaveLength(1 + 2 * 30);
    const groups = JSON.parse(params[0] as string) as { span: string; start: string; calls: number }[];
    expect(groups.map(({ span, start, calls }) => [span, start, calls])).toEqual([
      ['day', '2026-01-01T00:00:00.000Z', 2],
      ['hour', '2026-01-01T10:00:00.000Z', 2],
    ]);
    expect(params.slice(1, 3)).toEqual(['id-1', row().tenantId]);
    expect(params[31]).toBe('id-2');
    expect(sql).toContain('$2, $3,');
    expect(sql).toMatch(/\$25::jsonb, \$26, \$27, \$28::jsonb, \$29, \$30, \$31::jsonb\)/);
  });

  it('adds the error-code rollups when the batch has errors', () => {
    const { sql, params } = logBatchStatement([row({ status: 'error', errorCode: 'timeout' })]);
    expect(sql).toContain('alongside_1 AS (INSERT INTO execution_log_error_rollups AS r ');
    expect(params).toHaveLength(2 + 30);
    expect(JSON.parse(params[1] as string)).toEqual([
      expect.objectContaining({ span: 'day', error_code: 'timeout', errors: 1 }),
      expect.objectContaining({ span: 'hour', error_code: 'timeout', errors: 1 }),
    ]);
  });
});
