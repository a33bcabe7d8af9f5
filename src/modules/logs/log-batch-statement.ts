import { acrossEndpoints, rollUpBatch, type RollupGroup, type TagRollupGroup, nanosText } from './log-rollup';
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
       latency_max_ms int, h jsonb)
     ORDER BY ${tables.key}
     ON CONFLICT (${tables.key}) DO UPDATE SET ${[...SUM_COLUMNS, ...HISTOGRAM_COLUMNS]
       .map((column) => `${column} = r.${column} + excluded.${column}`)
       .join(', ')}, latency_max_ms = greatest(r.latency_max_ms, excluded.latency_max_ms)`,
  ];
  const errors = [
    `INSERT INTO ${tables.errors} AS r (${tables.key}, error_code, errors)
     SELECT ${tables.key}, error_code, errors
     FROM json_to_recordset($`,
    `::json) AS g(${tables.tagColumns}tenant_id uuid, endpoint_id uuid, prompt_id uuid, span varchar,
       start timestamptz, error_code varchar, errors bigint)
     ORDER BY ${tables.key}, error_code
     ON CONFLICT (${tables.key}, error_code) DO UPDATE SET errors = r.errors + excluded.errors`,
  ];
  return {
    sums: (param: number) => sums[0] + param + sums[1],
    errors: tables.errors === undefined ? undefined : (param: number) => errors[0] + param + errors[1],
  };
}
const PLAIN_UPSERTS = upsertsOf(PLAIN);
const PER_TAG_UPSERTS = upsertsOf(PER_TAG);
const PER_TAG_VALUE_UPSERTS = upsertsOf(PER_TAG_VALUE);

/**
 * The statement that stores a batch: one multi-row INSERT of the rows (each carries its own tenantId), with the
 * upserts that add the batch's sums to the rollups in its WITH clause, so the rollups are stored with the rows or not
 * at all, with no transaction (and no round trip) of their own: the statistics always agree with the rows stored.
 */
export function logBatchStatement(rows: PreparedLog[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  // Evaluation runs' executions are left out of the rollups: the statistics count them only when asked for them.
  const counted = rows.filter((row) => row.source !== 'Eval');
  const { groups, tagGroups } = rollUpBatch(counted);
  const statements = [
    ...rollupUpserts(groups, PLAIN_UPSERTS, params),
    ...rollupUpserts(tagGroups, PER_TAG_UPSERTS, params),
    ...rollupUpserts(acrossEndpoints(tagGroups), PER_TAG_VALUE_UPSERTS, params),
  ];
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
  const statements = [upserts.sums(params.length)];
  if (errorRecords.length === 0 || !upserts.errors) return statements;
  params.push(JSON.stringify(errorRecords));
  statements.push(upserts.errors(params.length));
  return statements;
}
