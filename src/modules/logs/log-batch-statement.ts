import {
  type RollupGroup,
  type RollupSource,
  type TagRollupGroup,
  type TaggedRows,
  acrossEndpoints,
  nanosText,
  rollUpBatch,
} from './log-rollup';
import type { PreparedLog } from './log-row';
import {
  HISTOGRAM_COLUMNS,
  ROLLUP_KEY as KEY,
  ROLLUP_VALUE_COLUMNS,
  SUM_COLUMNS,
  TAG_ROLLUP_KEY,
  TAG_VALUE_ROLLUP_KEY,
} from './rollup-columns';

/** The execution_logs columns, in the order of each row's values. */
const INSERT_COLUMNS = [
  'id',
  'tenant_id',
  'endpoint_id',
  'prompt_id',
  'prompt_version',
  'assignment',
  'source',
  'key_id',
  'key_environment',
  'request_id',
  'status',
  'http_status',
  'error_code',
  'cached',
  'llm_model',
  'input_tokens',
  'output_tokens',
  'cost_usd',
  'latency_ms',
  'streamed',
  'ttft_ms',
  'finish_reason',
  'created_at',
  'inputs',
  'rendered_prompt',
  'rendered_messages',
  'raw_response',
  'parsed_output',
  'error_message',
  'truncated_fields',
  'attempts',
  'tags',
  'tag_window',
];
const JSONB_COLUMNS = new Set(['inputs', 'rendered_messages', 'parsed_output', 'attempts', 'tags']);
/**
 * The rollup tables a batch adds to: the plain ones, those per tag key and value, and the tenant-wide sums per tag key
 * and value (over the endpoints, without errors per code).
 */
const PLAIN = { sums: 'execution_log_rollups', errors: 'execution_log_error_rollups', key: KEY, tagColumns: '' };
const PER_TAG = {
  sums: 'execution_log_tag_rollups',
  errors: 'execution_log_tag_error_rollups',
  key: TAG_ROLLUP_KEY,
  tagColumns: 'tag_key varchar, tag_value varchar, ',
};
const PER_TAG_VALUE = {
  sums: 'execution_log_tag_value_rollups',
  errors: undefined,
  key: TAG_VALUE_ROLLUP_KEY,
  tagColumns: 'tag_key varchar, tag_value varchar, ',
};
type RollupTables = typeof PLAIN | typeof PER_TAG_VALUE;

/**
 * The upserts of a table pair's sums and error counts, each around the number of its JSON parameter (the same text for
 * every batch, so built once). An upsert adds to what is stored: two writers counting the same hour lose nothing. The
 * histogram comes as an object of its non-zero buckets (`{"17": 3}`), most of a group's 145 buckets being empty.
 */
function upsertsOf(tables: RollupTables) {
  const sums = [
    `INSERT INTO ${tables.sums} AS r (${tables.key}, ${ROLLUP_VALUE_COLUMNS})
     SELECT ${tables.key}, ${SUM_COLUMNS.join(', ')}, latency_max_ms, ${HISTOGRAM_COLUMNS.map((_, i) => `coalesce((h ->> '${i}')::int, 0)`).join(', ')}
     FROM json_to_recordset($`,
    `::json) AS g(${tables.tagColumns}tenant_id uuid, endpoint_id uuid, prompt_id uuid, span varchar, start timestamptz,
       calls bigint, errors bigint, cache_hits bigint, input_tokens bigint, output_tokens bigint, cost_usd numeric,
       latency_max_ms int, h jsonb)`,
    ` ORDER BY ${tables.key}
     ON CONFLICT (${tables.key}) DO UPDATE SET ${[...SUM_COLUMNS, ...HISTOGRAM_COLUMNS]
       .map((column) => `${column} = r.${column} + excluded.${column}`)
       .join(', ')}, latency_max_ms = greatest(r.latency_max_ms, excluded.latency_max_ms)`,
  ];
  const errors = [
    `INSERT INTO ${tables.errors} AS r (${tables.key}, error_code, errors)
     SELECT ${tables.key}, error_code, errors
     FROM json_to_recordset($`,
    `::json) AS g(${tables.tagColumns}tenant_id uuid, endpoint_id uuid, prompt_id uuid, span varchar,
       start timestamptz, error_code varchar, errors bigint)`,
    ` ORDER BY ${tables.key}, error_code
     ON CONFLICT (${tables.key}, error_code) DO UPDATE SET errors = r.errors + excluded.errors`,
  ];
  return {
    sums: (param: number, where = '') => sums[0] + param + sums[1] + where + sums[2],
    errors:
      tables.errors === undefined
        ? undefined
        : (param: number, where = '') => errors[0] + param + errors[1] + where + errors[2],
  };
}
const PLAIN_UPSERTS = upsertsOf(PLAIN);
const PER_TAG_UPSERTS = upsertsOf(PER_TAG);
const PER_TAG_VALUE_UPSERTS = upsertsOf(PER_TAG_VALUE);

/** A statement with its parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * The statement that stores a batch: one multi-row INSERT of the rows (each carries its own tenantId), with the
 * upserts that add the batch's sums to the plain rollups in its WITH clause, so those are stored with the rows or not
 * at all, with no transaction (and no round trip) of their own: the statistics always agree with the rows stored.
 *
 * The tag rollups are not added per batch. Each counted row with tags names `tagWindow`, and the statement registers
 * the window for each tenant of those rows with the period they span (refused if the window is summed already); the
 * caller adds `tagged` to the window's sums once the statement has succeeded, and writes them when the window closes
 * (tagSumsStatement).
 */
export function logBatchStatement(rows: PreparedLog[], tagWindow: string): Statement & { tagged: TaggedRows } {
  const params: unknown[] = [];
  // Evaluation runs' executions are left out of the rollups: the statistics count them only when asked for them.
  const counted = rows.filter((row) => row.source !== 'Eval');
  const { groups, tagged } = rollUpBatch(counted);
  const statements = rollupUpserts(groups, PLAIN_UPSERTS, params);
  const inWindow = new Set<RollupSource>();
  if (tagged.length > 0) {
    const periods = new Map<string, { tenant_id: string; earliest: Date; latest: Date }>();
    for (const { row } of tagged) {
      inWindow.add(row);
      const period = periods.get(row.tenantId);
      if (!period)
        periods.set(row.tenantId, { tenant_id: row.tenantId, earliest: row.createdAt, latest: row.createdAt });
      else if (row.createdAt < period.earliest) period.earliest = row.createdAt;
      else if (row.createdAt > period.latest) period.latest = row.createdAt;
    }
    params.push(tagWindow, JSON.stringify([...periods.values()]));
    statements.push(registerWindow(params.length - 1, params.length));
  }
  const withClause = statements.length
    ? `WITH ${statements.map((statement, index) => `alongside_${index} AS (${statement})`).join(', ')} `
    : '';
  const tuples = rows.map((row) => {
    const values = [
      row.id,
      row.tenantId,
      row.endpointId,
      row.promptId,
      row.promptVersion,
      row.assignment,
      row.source,
      row.keyId,
      row.keyEnvironment,
      row.requestId,
      row.status,
      row.httpStatus,
      row.errorCode,
      row.cached,
      row.llmModel,
      row.inputTokens,
      row.outputTokens,
      row.costUsd,
      row.latencyMs,
      row.streamed,
      row.ttftMs,
      row.finishReason,
      row.createdAt,
      row.inputsJson,
      row.renderedPrompt,
      row.renderedMessagesJson,
      row.rawResponse,
      row.parsedOutputJson,
      row.errorMessage,
      row.truncatedFields,
      row.attemptsJson,
      row.tagsJson,
      inWindow.has(row) ? tagWindow : null,
    ];
    const placeholders = values.map((value, index) => {
      params.push(value);
      return JSONB_COLUMNS.has(INSERT_COLUMNS[index]) ? `$${params.length}::jsonb` : `$${params.length}`;
    });
    return `(${placeholders.join(', ')})`;
  });
  return {
    sql: `${withClause}INSERT INTO execution_logs (${INSERT_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`,
    params,
    tagged,
  };
}

/**
 * Registers a window for the tenants of a batch (JSON parameter `periods`: tenant_id, earliest, latest), widening the
 * period of its rows and the time it was last written to. A window already summed is marked late, which its check
 * refuses: the batch fails, and its rows are stored again in another window.
 */
function registerWindow(windowParam: number, periodsParam: number): string {
  return `INSERT INTO tag_sum_windows AS w (id, tenant_id, earliest, latest)
     SELECT $${windowParam}::uuid, tenant_id, earliest, latest
     FROM json_to_recordset($${periodsParam}::json) AS p(tenant_id uuid, earliest timestamptz, latest timestamptz)
     ORDER BY tenant_id
     ON CONFLICT (id, tenant_id) DO UPDATE SET earliest = least(w.earliest, excluded.earliest),
       latest = greatest(w.latest, excluded.latest), touched_at = now(), late = w.summed`;
}

/**
 * The statement that adds a window's tag sums to the tag rollups, per endpoint (with errors per code) and across the
 * endpoints. With `claim`, it first marks the window's tenants summed and adds only the sums of the tenants it marked:
 * a window is summed once, by whoever claims it first. Without it, the caller has claimed the window already.
 */
export function tagSumsStatement(groups: TagRollupGroup[], claim?: { window: string }): Statement {
  const params: unknown[] = [];
  let where = '';
  const statements: string[] = [];
  if (claim) {
    params.push(claim.window);
    statements.push(`UPDATE tag_sum_windows SET summed = true WHERE id = $1::uuid AND NOT summed RETURNING tenant_id`);
    where = ' WHERE g.tenant_id IN (SELECT tenant_id FROM alongside_0)';
  }
  statements.push(
    ...rollupUpserts(groups, PER_TAG_UPSERTS, params, where),
    ...rollupUpserts(acrossEndpoints(groups), PER_TAG_VALUE_UPSERTS, params, where),
  );
  if (statements.length === 0) return { sql: 'SELECT 0 AS claimed', params };
  const withClause = statements.map((statement, index) => `alongside_${index} AS (${statement})`).join(', ');
  // The number of tenants claimed (1 without a claim): 0 when another writer summed the window first.
  return {
    sql: `WITH ${withClause} SELECT ${claim ? '(SELECT count(*) FROM alongside_0)' : '1'}::int AS claimed`,
    params,
  };
}

/**
 * The upserts that add a batch's groups to the rollups, as statements for the WITH clause of the batch's log INSERT
 * (see logBatchStatement): one statement stores the rows and their sums together or not at all,
 * without a transaction around them. Parameters are appended to `params`. Rows are upserted in key order (the
 * groups come sorted), so concurrent writers never wait for each other in a cycle.
 */
function rollupUpserts(
  groups: (RollupGroup | TagRollupGroup)[],
  upserts: ReturnType<typeof upsertsOf>,
  params: unknown[],
  where = '',
): string[] {
  if (groups.length === 0) return [];
  const records: Record<string, unknown>[] = [];
  const errorRecords: Record<string, unknown>[] = [];
  for (const group of groups) {
    // The columns that name a group's row, in the sums and in the error counts alike.
    const key: Record<string, unknown> = 'tagKey' in group ? { tag_key: group.tagKey, tag_value: group.tagValue } : {};
    key.tenant_id = group.tenantId;
    if (upserts.errors) {
      key.endpoint_id = group.endpointId;
      key.prompt_id = group.promptId;
    }
    key.span = group.span;
    key.start = group.start.toISOString();
    records.push({
      ...key,
      calls: group.calls,
      errors: group.errors,
      cache_hits: group.cacheHits,
      input_tokens: group.inputTokens,
      output_tokens: group.outputTokens,
      cost_usd: nanosText(group.costNanos),
      latency_max_ms: group.latencyMaxMs,
      h: group.latencyCounts,
    });
    for (const [errorCode, count] of group.errorCodes)
      errorRecords.push({ ...key, error_code: errorCode, errors: count });
  }
  params.push(JSON.stringify(records));
  const statements = [upserts.sums(params.length, where)];
  if (errorRecords.length === 0 || !upserts.errors) return statements;
  params.push(JSON.stringify(errorRecords));
  statements.push(upserts.errors(params.length, where));
  return statements;
}
