import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TransactionHost } from '../../database/transactions';
import { BUCKET_COUNT, BUCKET_STARTS, type LatencyHistogram } from './latency-histogram';
import { NO_PROMPT, type RollupSpan, type RollupSums, nanosOf } from './log-rollup';
import type { StatsInterval } from './execution-logs.repository';
import {
  HISTOGRAM_COLUMNS,
  LATENCY_BUCKET,
  ROLLUP_COLUMNS as COLUMNS,
  ROLLUP_KEY as KEY,
  ROLLUP_VALUE_COLUMNS,
  SUM_COLUMNS,
  TAG_ROLLUP_KEY as TAG_KEY,
  TAG_VALUE_ROLLUP_KEY as TAG_VALUE_KEY,
} from './rollup-columns';
import { tagConditions } from './tag-filter';

const ROLLUP_TABLES = [
  'execution_log_rollups',
  'execution_log_error_rollups',
  'execution_log_tag_rollups',
  'execution_log_tag_error_rollups',
  'execution_log_tag_value_rollups',
];

/**
 * The rows the rollups count: every execution but those of evaluation runs, which the statistics leave out (they read
 * an evaluation's rows only when asked for source=Eval, from the rows themselves).
 */
export const COUNTED_IN_STATS = "source <> 'Eval'";

/** A period of one kind of source: raw log rows, hourly rollups or daily rollups. */
export interface RollupPiece {
  source: 'logs' | RollupSpan;
  from: Date;
  to: Date;
}

export interface RollupRead {
  endpointId?: string;
  interval: StatsInterval;
  /** Split each bucket's figures by prompt (executions with no prompt answer promptId null). */
  byPrompt: boolean;
  /**
   * Only executions tagged `key` with one of `values` (any value when null), read from the tag rollups (an execution
   * has one value per key, so the sums count each once). They are not split by prompt: not with byPrompt.
   */
  tag?: { key: string; values: string[] | null };
  /** With `tag`: one row per tag value, over the whole period (the bucket is then not meaningful). */
  byTagValue?: boolean;
}

/** A filter on one tag key (values of it, or any value when null), within an endpoint or the whole tenant. */
export interface TagCallsRead {
  endpointId?: string;
  tag: { key: string; values: string[] | null };
}

/** Executions with a value of a tag key (null: all of the read's, when not split by value). */
export interface TagCalls {
  tagValue: string | null;
  calls: number;
}

/** The sums of a bucket (and prompt, when asked) over some pieces of the period. */
export interface RollupFigures extends RollupSums {
  bucket: Date;
  promptId: string | null;
  /** With byTagValue: the tag's value. */
  tagValue: string | null;
  latency: LatencyHistogram;
}

export interface RollupErrorCodes {
  bucket: Date;
  promptId: string | null;
  tagValue: string | null;
  errorCode: string;
  count: number;
}

/**
 * execution_log_rollups and execution_log_error_rollups: the sums of the execution logs per tenant, endpoint, prompt
 * and UTC hour (span 'hour') or day (span 'day'), written with the log rows, in the same statement, so they always
 * agree with the rows they stand for.
 */
@Injectable()
export class ExecutionLogRollupsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  private get db(): EntityManager {
    return this.txHost.tx;
  }

  /** The figures of the pieces, per bucket (and prompt): rollups where the pieces are whole hours or days, else rows. */
  async figures(tenantId: string, pieces: RollupPiece[], read: RollupRead): Promise<RollupFigures[]> {
    const rolled = pieces.filter((piece) => piece.source !== 'logs');
    const raw = pieces.filter((piece) => piece.source === 'logs');
    const [fromRollups, fromLogs] = await Promise.all([
      rolled.length ? this.rollupFigures(tenantId, rolled, read) : [],
      raw.length ? this.logFigures(tenantId, raw, read) : [],
    ]);
    return [...fromRollups, ...fromLogs];
  }

  async errorCodes(tenantId: string, pieces: RollupPiece[], read: RollupRead): Promise<RollupErrorCodes[]> {
    const rolled = pieces.filter((piece) => piece.source !== 'logs');
    const raw = pieces.filter((piece) => piece.source === 'logs');
    const bucket = (column: string) => bucketOf(read, column);
    const prompt = read.byPrompt ? 'prompt_id' : 'NULL::uuid';
    const queries: Promise<Record<string, unknown>[]>[] = [];
    if (rolled.length) {
      const { where, params } = rollupWhere(tenantId, rolled, read);
      queries.push(
        this.db.query(
          `SELECT ${bucket('start')} AS bucket, ${prompt} AS prompt_id, ${read.byTagValue ? 'tag_value' : 'NULL::text'} AS tag_value,
             error_code, sum(errors) AS count
           FROM ${read.tag ? 'execution_log_tag_error_rollups' : 'execution_log_error_rollups'} WHERE ${where} GROUP BY 1, 2, 3, 4`,
          params,
        ),
      );
    }
    if (raw.length) {
      const { from, params } = logRanges(tenantId, raw, read, "status = 'error'");
      queries.push(
        this.db.query(
          `SELECT ${bucket('created_at')} AS bucket, ${read.byPrompt ? `coalesce(prompt_id, '${NO_PROMPT}')` : 'NULL::uuid'} AS prompt_id,
             tag_value, coalesce(error_code, 'unknown') AS error_code, count(*) AS count
           FROM ${from} GROUP BY 1, 2, 3, 4`,
          params,
        ),
      );
    }
    const rows = (await Promise.all(queries)).flat();
    return rows.map((row) => ({
      bucket: new Date(row.bucket as Date),
      promptId: promptOf(row.prompt_id),
      tagValue: (row.tag_value as string | null) ?? null,
      errorCode: String(row.error_code),
      count: Number(row.count),
    }));
  }

  /**
   * The executions of a filter on one tag key over the pieces, per value of the key (byValue) or in total: the rollup
   * pieces summed from the tag rollups' index entries alone (their primary key for any value, the value index for given
   * values; one range read per piece), the log pieces counted from the rows.
   */
  async tagCalls(tenantId: string, pieces: RollupPiece[], read: TagCallsRead, byValue: boolean): Promise<TagCalls[]> {
    const rolled = pieces.filter((piece) => piece.source !== 'logs');
    const raw = pieces.filter((piece) => piece.source === 'logs');
    const queries: Promise<Record<string, unknown>[]>[] = [];
    if (rolled.length) {
      const params: unknown[] = [tenantId, read.tag.key];
      let base = 'tenant_id = $1 AND tag_key = $2';
      if (read.tag.values) {
        params.push(read.tag.values);
        base += ` AND tag_value = ANY($${params.length}::text[])`;
      }
      if (read.endpointId) {
        params.push(read.endpointId);
        base += ` AND endpoint_id = $${params.length}`;
      }
      const selects = rolled.map((piece) => {
        params.push(piece.source, piece.from, piece.to);
        const n = params.length;
        return `SELECT ${byValue ? 'tag_value' : 'NULL::text'} AS tag_value, calls FROM ${tagSumsTable(read, byValue)}
          WHERE ${base} AND span = $${n - 2} AND start >= $${n - 1} AND start < $${n}`;
      });
      queries.push(
        this.db.query(
          `SELECT tag_value, sum(calls) AS calls FROM (${selects.join(' UNION ALL ')}) r GROUP BY 1`,
          params,
        ),
      );
    }
    if (raw.length) {
      const logRead: RollupRead = { ...read, interval: 'day', byPrompt: false, byTagValue: byValue };
      const { from, params } = logRanges(tenantId, raw, logRead);
      queries.push(this.db.query(`SELECT tag_value, count(*) AS calls FROM ${from} GROUP BY 1`, params));
    }
    const sums = new Map<string | null, number>();
    for (const row of (await Promise.all(queries)).flat()) {
      const value = (row.tag_value as string | null) ?? null;
      sums.set(value, (sums.get(value) ?? 0) + Number(row.calls));
    }
    return [...sums].map(([tagValue, calls]) => ({ tagValue, calls }));
  }

  /**
   * Retention: removes the rollups of hours before `cutoff` (a whole hour) and of days that end before it; the day
   * holding it is summed again from its remaining hours.
   */
  async deleteBefore(cutoff: Date): Promise<void> {
    const dayStart = new Date(Math.floor(cutoff.getTime() / 86_400_000) * 86_400_000);
    const partialDay = cutoff.getTime() > dayStart.getTime();
    for (const table of ROLLUP_TABLES) {
      await this.db.query(`DELETE FROM ${table} WHERE span = 'hour' AND start < $1`, [cutoff]);
      await this.db.query(`DELETE FROM ${table} WHERE span = 'day' AND start ${partialDay ? '<=' : '<'} $1`, [
        dayStart,
      ]);
    }
    if (!partialDay) return;
    const nextDay = new Date(dayStart.getTime() + 86_400_000);
    await this.db.query(
      `INSERT INTO execution_log_rollups (${COLUMNS})
       SELECT tenant_id, 'day', $1::timestamptz, endpoint_id, prompt_id, ${SUM_COLUMNS.map((c) => `sum(${c})`).join(', ')},
         max(latency_max_ms), ${HISTOGRAM_COLUMNS.map((c) => `sum(${c})`).join(', ')}
       FROM execution_log_rollups WHERE span = 'hour' AND start >= $1 AND start < $2
       GROUP BY tenant_id, endpoint_id, prompt_id`,
      [dayStart, nextDay],
    );
    await this.db.query(
      `INSERT INTO execution_log_error_rollups (${KEY}, error_code, errors)
       SELECT tenant_id, 'day', $1::timestamptz, endpoint_id, prompt_id, error_code, sum(errors)
       FROM execution_log_error_rollups WHERE span = 'hour' AND start >= $1 AND start < $2
       GROUP BY tenant_id, endpoint_id, prompt_id, error_code`,
      [dayStart, nextDay],
    );
    await this.db.query(
      `INSERT INTO execution_log_tag_rollups (${TAG_KEY}, ${ROLLUP_VALUE_COLUMNS})
       SELECT tenant_id, tag_key, 'day', $1::timestamptz, tag_value, endpoint_id,
         ${SUM_COLUMNS.map((c) => `sum(${c})`).join(', ')}, max(latency_max_ms), ${HISTOGRAM_COLUMNS.map((c) => `sum(${c})`).join(', ')}
       FROM execution_log_tag_rollups WHERE span = 'hour' AND start >= $1 AND start < $2
       GROUP BY tenant_id, tag_key, tag_value, endpoint_id`,
      [dayStart, nextDay],
    );
    await this.db.query(
      `INSERT INTO execution_log_tag_error_rollups (${TAG_KEY}, error_code, errors)
       SELECT tenant_id, tag_key, 'day', $1::timestamptz, tag_value, endpoint_id, error_code, sum(errors)
       FROM execution_log_tag_error_rollups WHERE span = 'hour' AND start >= $1 AND start < $2
       GROUP BY tenant_id, tag_key, tag_value, endpoint_id, error_code`,
      [dayStart, nextDay],
    );
    await this.db.query(
      `INSERT INTO execution_log_tag_value_rollups (${TAG_VALUE_KEY}, ${ROLLUP_VALUE_COLUMNS})
       SELECT tenant_id, tag_key, 'day', $1::timestamptz, tag_value,
         ${SUM_COLUMNS.map((c) => `sum(${c})`).join(', ')}, max(latency_max_ms), ${HISTOGRAM_COLUMNS.map((c) => `sum(${c})`).join(', ')}
       FROM execution_log_tag_value_rollups WHERE span = 'hour' AND start >= $1 AND start < $2
       GROUP BY tenant_id, tag_key, tag_value`,
      [dayStart, nextDay],
    );
  }

  /**
   * Builds the rollups of the tenants' existing log rows (which must have none yet): the seeding tool's counterpart of
   * the writer's upsert.
   */
  async buildFromLogs(tenantIds: string[]): Promise<void> {
    const where = 'WHERE tenant_id = ANY($1::uuid[])';
    for (const sql of rollupsFromLogsSql(where, COUNTED_IN_STATS)) await this.db.query(sql, [tenantIds]);
    for (const sql of tagRollupsFromLogsSql('tenant_id = ANY($1::uuid[])', COUNTED_IN_STATS))
      await this.db.query(sql, [tenantIds]);
    await this.db.query(tagValueRollupsSql('tenant_id = ANY($1::uuid[])'), [tenantIds]);
  }

  private async rollupFigures(tenantId: string, pieces: RollupPiece[], read: RollupRead): Promise<RollupFigures[]> {
    const { from, params } = rollupRows(tenantId, pieces, read);
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT bucket, prompt_id, tag_value, ${SUM_COLUMNS.join(', ')}, latency_max_ms, ${SPARSE_HISTOGRAM} AS latency
       FROM (
         SELECT ${bucketOf(read, 'start')} AS bucket, ${read.byPrompt ? 'prompt_id' : 'NULL::uuid'} AS prompt_id,
           ${read.byTagValue ? 'tag_value' : 'NULL::text'} AS tag_value,
           ${SUM_COLUMNS.map((c) => `sum(${c}) AS ${c}`).join(', ')}, max(latency_max_ms) AS latency_max_ms,
           ${HISTOGRAM_COLUMNS.map((c) => `sum(${c}) AS ${c}`).join(', ')}
         FROM ${from} GROUP BY 1, 2, 3) sums`,
      params,
    );
    return rows.map((row) => ({ ...sumsOf(row), latency: histogramOf(row) }));
  }

  /** Raw rows, summed per bucket (and prompt), their latencies counted per latency bucket. */
  private async logFigures(tenantId: string, pieces: RollupPiece[], read: RollupRead): Promise<RollupFigures[]> {
    const { from, params } = logRanges(tenantId, pieces, read);
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT bucket, prompt_id, tag_value, ${SUM_COLUMNS.map((c) => `sum(${c}) AS ${c}`).join(', ')},
         max(latency_max_ms) AS latency_max_ms, string_agg(latency_bucket || ':' || calls, ',') AS latency
       FROM (
         SELECT ${bucketOf(read, 'created_at')} AS bucket,
           ${read.byPrompt ? `coalesce(prompt_id, '${NO_PROMPT}')` : 'NULL::uuid'} AS prompt_id, tag_value,
           ${LATENCY_BUCKET} AS latency_bucket,
           count(*) AS calls, count(*) FILTER (WHERE status = 'error') AS errors, count(*) FILTER (WHERE cached) AS cache_hits,
           coalesce(sum(input_tokens), 0) AS input_tokens, coalesce(sum(output_tokens), 0) AS output_tokens,
           coalesce(sum(cost_usd), 0) AS cost_usd, max(latency_ms) AS latency_max_ms
         FROM ${from} GROUP BY 1, 2, 3, 4) fine
       GROUP BY bucket, prompt_id, tag_value`,
      params,
    );
    return rows.map((row) => ({ ...sumsOf(row), latency: histogramOf(row) }));
  }
}

/**
 * The table a read of tag sums (its executions or its figures) is answered from: without an endpoint, for all of a
 * key's values or per value (groups by the key), the tenant-wide tag rollups, one row per value and hour or day; else
 * the tag rollups, whose index per value finds a few given values' rows however many values the key has.
 */
function tagSumsTable(read: TagCallsRead, byValue: boolean): string {
  return read.endpointId === undefined && (read.tag.values === null || byValue)
    ? 'execution_log_tag_value_rollups'
    : 'execution_log_tag_rollups';
}

/** The histogram as `bucket:count` pairs of its non-empty buckets (one short text instead of 145 columns). */
const SPARSE_HISTOGRAM = `array_to_string(ARRAY[${HISTOGRAM_COLUMNS.map((c, i) => `CASE WHEN ${c} > 0 THEN '${i}:' || ${c} END`).join(', ')}], ',')`;

function histogramOf(row: Record<string, unknown>): LatencyHistogram {
  const counts = new Array<number>(BUCKET_COUNT).fill(0);
  const text = (row.latency as string | null) ?? '';
  if (text)
    for (const pair of text.split(',')) {
      const colon = pair.indexOf(':');
      counts[Number(pair.slice(0, colon))] += Number(pair.slice(colon + 1));
    }
  return { counts, maxMs: Number(row.latency_max_ms) };
}

function sumsOf(row: Record<string, unknown>): Omit<RollupFigures, 'latency'> {
  return {
    bucket: new Date(row.bucket as Date),
    promptId: promptOf(row.prompt_id),
    tagValue: (row.tag_value as string | null) ?? null,
    calls: Number(row.calls),
    errors: Number(row.errors),
    cacheHits: Number(row.cache_hits),
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    costNanos: nanosOf(row.cost_usd as string),
  };
}

const promptOf = (value: unknown) => (value === null || value === NO_PROMPT ? null : (value as string));

/** The bucket of a row: its UTC hour or day, or none when the figures are read per tag value over the period. */
function bucketOf(read: RollupRead, column: string): string {
  return read.byTagValue ? 'NULL::timestamptz' : `date_trunc('${read.interval}', ${column}, 'UTC')`;
}

/**
 * The rollup rows of a read's pieces. From the tenant-wide tag rollups, one range read of their primary key per piece
 * (UNION ALL, so none becomes a read of every key's rows of the period); else the rows of one condition.
 */
function rollupRows(tenantId: string, pieces: RollupPiece[], read: RollupRead): { from: string; params: unknown[] } {
  const table = read.tag
    ? tagSumsTable({ endpointId: read.endpointId, tag: read.tag }, read.byTagValue === true)
    : 'execution_log_rollups';
  if (table !== 'execution_log_tag_value_rollups') {
    const { where, params } = rollupWhere(tenantId, pieces, read);
    return { from: `${table} WHERE ${where}`, params };
  }
  const params: unknown[] = [tenantId, read.tag!.key];
  let base = 'tenant_id = $1 AND tag_key = $2';
  if (read.tag!.values) {
    params.push(read.tag!.values);
    base += ` AND tag_value = ANY($${params.length}::text[])`;
  }
  const selects = pieces.map((piece) => {
    params.push(piece.source, piece.from, piece.to);
    const n = params.length;
    return `SELECT * FROM ${table} WHERE ${base} AND span = $${n - 2} AND start >= $${n - 1} AND start < $${n}`;
  });
  return { from: `(${selects.join(' UNION ALL ')}) AS r`, params };
}

function rollupWhere(tenantId: string, pieces: RollupPiece[], read: RollupRead): { where: string; params: unknown[] } {
  const { endpointId, tag } = read;
  const params: unknown[] = [tenantId];
  let tagCondition = '';
  if (tag) {
    params.push(tag.key);
    tagCondition = ` AND tag_key = $${params.length}`;
    if (tag.values) {
      params.push(tag.values);
      tagCondition += ` AND tag_value = ANY($${params.length}::text[])`;
    }
  }
  const ranges = pieces.map((piece) => {
    params.push(piece.source, piece.from, piece.to);
    const n = params.length;
    return `(span = $${n - 2} AND start >= $${n - 1} AND start < $${n})`;
  });
  let where = `tenant_id = $1${tagCondition} AND (${ranges.join(' OR ')})`;
  if (endpointId) {
    params.push(endpointId);
    where += ` AND endpoint_id = $${params.length}`;
  }
  return { where, params };
}

/**
 * The log rows of the pieces' periods: one range read per piece (UNION ALL, so each stays an index-only range read of
 * the tenant's or the endpoint's index).
 */
function logRanges(
  tenantId: string,
  pieces: RollupPiece[],
  read: RollupRead,
  condition?: string,
): { from: string; params: unknown[] } {
  const { endpointId, tag } = read;
  const params: unknown[] = [tenantId];
  if (endpointId) params.push(endpointId);
  const conditions = [
    `tenant_id = $1${endpointId ? ' AND endpoint_id = $2' : ''} AND ${COUNTED_IN_STATS}${condition ? ` AND ${condition}` : ''}`,
  ];
  let tagValue = 'NULL::text';
  if (tag) {
    const filter = tag.values
      ? { values: new Map([[tag.key, tag.values]]), present: [] }
      : { values: new Map(), present: [tag.key] };
    conditions.push(...tagConditions(filter, params));
    if (read.byTagValue) {
      params.push(tag.key);
      tagValue = `tags ->> $${params.length}`;
    }
  }
  const base = conditions.join(' AND ');
  const selects = pieces.map((piece) => {
    params.push(piece.from, piece.to);
    const n = params.length;
    return `SELECT created_at, prompt_id, status, error_code, cached, latency_ms, input_tokens, output_tokens, cost_usd,
        ${tagValue} AS tag_value
      FROM execution_logs WHERE ${base} AND created_at >= $${n - 1} AND created_at < $${n}`;
  });
  return { from: `(${selects.join(' UNION ALL ')}) AS l`, params };
}

/**
 * The statements that build rollups from existing log rows matching `where` (the migration's backfill and the seeding
 * tool): hourly sums per latency bucket, turned into one row per hour with its histogram; days summed from the hours.
 * `logCondition` narrows the log rows read (the rollups have no column of their own for it).
 */
export function rollupsFromLogsSql(where: string, logCondition?: string): string[] {
  const logWhere = logCondition ? `${where ? `${where} AND` : 'WHERE'} ${logCondition}` : where;
  const hourSums = SUM_COLUMNS.map((c) => `sum(${c})`).join(', ');
  return [
    `INSERT INTO execution_log_rollups (${COLUMNS})
     SELECT tenant_id, 'hour', start, endpoint_id, prompt_id, ${hourSums}, max(latency_max_ms),
       ${BUCKET_STARTS.map((_, i) => `coalesce(sum(calls) FILTER (WHERE latency_bucket = ${i}), 0)`).join(', ')}
     FROM (
       SELECT tenant_id, date_trunc('hour', created_at, 'UTC') AS start, endpoint_id,
         coalesce(prompt_id, '${NO_PROMPT}') AS prompt_id, ${LATENCY_BUCKET} AS latency_bucket,
         count(*) AS calls, count(*) FILTER (WHERE status = 'error') AS errors, count(*) FILTER (WHERE cached) AS cache_hits,
         coalesce(sum(input_tokens), 0) AS input_tokens, coalesce(sum(output_tokens), 0) AS output_tokens,
         coalesce(sum(cost_usd), 0) AS cost_usd, max(latency_ms) AS latency_max_ms
       FROM execution_logs ${logWhere} GROUP BY 1, 2, 3, 4, 5) fine
     GROUP BY tenant_id, start, endpoint_id, prompt_id`,
    `INSERT INTO execution_log_rollups (${COLUMNS})
     SELECT tenant_id, 'day', date_trunc('day', start, 'UTC'), endpoint_id, prompt_id, ${hourSums}, max(latency_max_ms),
       ${HISTOGRAM_COLUMNS.map((c) => `sum(${c})`).join(', ')}
     FROM execution_log_rollups ${where ? `${where} AND` : 'WHERE'} span = 'hour' GROUP BY 1, 3, 4, 5`,
    `INSERT INTO execution_log_error_rollups (${KEY}, error_code, errors)
     SELECT tenant_id, span, start, endpoint_id, prompt_id, error_code, count(*)
     FROM (
       SELECT tenant_id, endpoint_id, coalesce(prompt_id, '${NO_PROMPT}') AS prompt_id,
         coalesce(error_code, 'unknown') AS error_code, date_trunc('hour', created_at, 'UTC') AS hour,
         date_trunc('day', created_at, 'UTC') AS day
       FROM execution_logs ${logWhere ? `${logWhere} AND` : 'WHERE'} status = 'error') e
     CROSS JOIN LATERAL (VALUES ('hour', hour), ('day', day)) AS s(span, start)
     GROUP BY tenant_id, span, start, endpoint_id, prompt_id, error_code`,
  ];
}

/**
 * The statement that sums the tag rollups matching `where` over their endpoints into the tenant-wide tag rollups (the
 * migration's backfill and the seeding tool).
 */
export function tagValueRollupsSql(where: string): string {
  return `INSERT INTO execution_log_tag_value_rollups (${TAG_VALUE_KEY}, ${ROLLUP_VALUE_COLUMNS})
     SELECT tenant_id, tag_key, span, start, tag_value, ${SUM_COLUMNS.map((c) => `sum(${c})`).join(', ')},
       max(latency_max_ms), ${HISTOGRAM_COLUMNS.map((c) => `sum(${c})`).join(', ')}
     FROM execution_log_tag_rollups WHERE ${where} GROUP BY tenant_id, tag_key, span, start, tag_value`;
}

/**
 * The statements that build the tag rollups from existing log rows matching `where` (the seeding tool): each row
 * counted once under each of its tags, as the writer's upsert counts it. `logCondition` narrows the log rows read.
 */
export function tagRollupsFromLogsSql(where: string, logCondition?: string): string[] {
  const hourSums = SUM_COLUMNS.map((c) => `sum(${c})`).join(', ');
  const tagged = `execution_logs l CROSS JOIN LATERAL jsonb_each_text(l.tags) AS t(tag_key, tag_value) WHERE ${where}${logCondition ? ` AND ${logCondition}` : ''}`;
  return [
    `INSERT INTO execution_log_tag_rollups (${TAG_KEY}, ${ROLLUP_VALUE_COLUMNS})
     SELECT tenant_id, tag_key, 'hour', start, tag_value, endpoint_id, ${hourSums}, max(latency_max_ms),
       ${BUCKET_STARTS.map((_, i) => `coalesce(sum(calls) FILTER (WHERE latency_bucket = ${i}), 0)`).join(', ')}
     FROM (
       SELECT tenant_id, t.tag_key, t.tag_value, date_trunc('hour', created_at, 'UTC') AS start, endpoint_id,
         ${LATENCY_BUCKET} AS latency_bucket,
         count(*) AS calls, count(*) FILTER (WHERE status = 'error') AS errors, count(*) FILTER (WHERE cached) AS cache_hits,
         coalesce(sum(input_tokens), 0) AS input_tokens, coalesce(sum(output_tokens), 0) AS output_tokens,
         coalesce(sum(cost_usd), 0) AS cost_usd, max(latency_ms) AS latency_max_ms
       FROM ${tagged} GROUP BY 1, 2, 3, 4, 5, 6) fine
     GROUP BY tenant_id, tag_key, tag_value, start, endpoint_id`,
    `INSERT INTO execution_log_tag_rollups (${TAG_KEY}, ${ROLLUP_VALUE_COLUMNS})
     SELECT tenant_id, tag_key, 'day', date_trunc('day', start, 'UTC'), tag_value, endpoint_id, ${hourSums},
       max(latency_max_ms), ${HISTOGRAM_COLUMNS.map((c) => `sum(${c})`).join(', ')}
     FROM execution_log_tag_rollups WHERE ${where} AND span = 'hour' GROUP BY 1, 2, 4, 5, 6`,
    `INSERT INTO execution_log_tag_error_rollups (${TAG_KEY}, error_code, errors)
     SELECT tenant_id, tag_key, span, start, tag_value, endpoint_id, error_code, count(*)
     FROM (
       SELECT tenant_id, t.tag_key, t.tag_value, endpoint_id, coalesce(error_code, 'unknown') AS error_code, date_trunc('hour', created_at, 'UTC') AS hour,
         date_trunc('day', created_at, 'UTC') AS day
       FROM ${tagged} AND status = 'error') e
     CROSS JOIN LATERAL (VALUES ('hour', hour), ('day', day)) AS s(span, start)
     GROUP BY tenant_id, tag_key, span, start, tag_value, endpoint_id, error_code`,
  ];
}
