import { Injectable } from '@nestjs/common';
import { In, Repository } from 'typeorm';
import { ExecutionLogEntity } from './execution-log.entity';
import type { ExecutionSource, PromptAssignment } from './new-execution-log';
import type { PreparedLog } from './log-row';
import { logBatchStatement } from './log-batch-statement';
import type { TaggedRows } from './log-rollup';
import { TransactionHost } from '../../database/transactions';
import { type TagFilter, tagConditions } from './tag-filter';
import { type ScoreFilter, scoreConditions } from './score-filter';

export interface LogFilter {
  endpointId?: string;
  keyId?: string;
  source?: ExecutionSource;
  /** Leaves out the rows of `source` (the statistics leave out evaluation runs unless asked for them). */
  notSource?: ExecutionSource;
  status?: 'success' | 'error';
  promptId?: string;
  assignment?: PromptAssignment;
  requestId?: string;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
  tags?: TagFilter;
  scores?: ScoreFilter;
}

/** The list columns: everything but the detail fields, which can be large. */
export type ExecutionLogSummary = Omit<
  ExecutionLogEntity,
  'inputs' | 'renderedPrompt' | 'renderedMessages' | 'rawResponse' | 'parsedOutput' | 'errorMessage' | 'attempts'
>;

export interface StatsRow {
  /** null on the totals row. */
  bucket: Date | null;
  calls: number;
  errors: number;
  cacheHits: number;
  p50: number | null;
  p95: number | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** The totals of one prompt's executions. */
export interface PromptStatsRow extends Omit<StatsRow, 'bucket'> {
  promptId: string;
}

/** The figures of a group of executions, as `stats` and `promptStats` select them (see figuresOf). */
const FIGURES = `count(*)::int AS calls,
         count(*) FILTER (WHERE status = 'error')::int AS errors,
         count(*) FILTER (WHERE cached)::int AS cache_hits,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50,
         percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95,
         coalesce(sum(input_tokens), 0)::bigint AS input_tokens,
         coalesce(sum(output_tokens), 0)::bigint AS output_tokens,
         coalesce(sum(cost_usd), 0) AS cost_usd`;

type Figures = Omit<StatsRow, 'bucket'>;

/** The figures of a row selected with FIGURES (the driver answers bigint and numeric as strings). */
function figuresOf(row: Record<string, unknown>): Figures {
  return {
    calls: Number(row.calls),
    errors: Number(row.errors),
    cacheHits: Number(row.cache_hits),
    p50: row.p50 === null ? null : Number(row.p50),
    p95: row.p95 === null ? null : Number(row.p95),
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    costUsd: Number(row.cost_usd),
  };
}

/** The totals of one tag value's executions; null: the other values and the executions without the tag. */
export interface TagStatsRow extends Omit<StatsRow, 'bucket'> {
  tagValue: string | null;
}

export interface TagErrorCodeRow {
  tagValue: string | null;
  errorCode: string;
  count: number;
}

/** How many values of a tag key its groups name; the rest are summed in one group. */
export const TAG_GROUPS = 100;

export interface PromptErrorCodeRow {
  promptId: string;
  errorCode: string;
  count: number;
}

export interface ErrorCodeRow {
  bucket: Date;
  errorCode: string;
  count: number;
}

export type StatsInterval = 'hour' | 'day';

const SUMMARY_SELECT = `id, tenant_id AS "tenantId", endpoint_id AS "endpointId", prompt_id AS "promptId",
  prompt_version AS "promptVersion", assignment, source, key_id AS "keyId", key_environment AS "keyEnvironment",
  request_id AS "requestId", status, http_status AS "httpStatus", error_code AS "errorCode", cached,
  llm_model AS "llmModel", input_tokens AS "inputTokens", output_tokens AS "outputTokens", cost_usd AS "costUsd",
  latency_ms AS "latencyMs", streamed, ttft_ms AS "ttftMs", finish_reason AS "finishReason", created_at AS "createdAt", truncated_fields AS "truncatedFields", tags`;

@Injectable()
export class ExecutionLogsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  /** The open transaction's, when there is one. */
  private get logs(): Repository<ExecutionLogEntity> {
    return this.txHost.tx.getRepository(ExecutionLogEntity);
  }

  /**
   * The batch's rows and their plain rollups, in one statement, its tagged rows naming `tagWindow` (see
   * logBatchStatement); returns those rows with their figures, for the window's sums.
   */
  async insertBatch(rows: PreparedLog[], tagWindow: string): Promise<TaggedRows> {
    if (rows.length === 0) return [];
    const { sql, params, tagged } = logBatchStatement(rows, tagWindow);
    await this.logs.query(sql, params);
    return tagged;
  }

  /**
   * A page, newest first (ties broken by id so pages never overlap). The page's ids are chosen from a covering index
   * alone (skipping `offset` entries costs no table reads); only those rows are then read from the table.
   */
  async findPage(tenantId: string, filter: LogFilter, offset: number, limit: number): Promise<ExecutionLogSummary[]> {
    const { where, params } = whereClause(tenantId, filter);
    const rows: ExecutionLogSummary[] = await this.logs.query(
      `WITH page AS (
         SELECT id, created_at FROM execution_logs WHERE ${where}
         ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2})
       SELECT ${SUMMARY_SELECT} FROM execution_logs JOIN page USING (id, created_at)
       WHERE tenant_id = $1
       ORDER BY created_at DESC, id DESC`,
      [...params, limit, offset],
    );
    return rows;
  }

  /** Matching rows, counted up to `cap` + 1 at most, so a count over millions of rows stays an index range read. */
  async countUpTo(tenantId: string, filter: LogFilter, cap: number): Promise<number> {
    const { where, params } = whereClause(tenantId, filter);
    const [row] = await this.logs.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM (SELECT 1 FROM execution_logs WHERE ${where} LIMIT $${params.length + 1}) matching`,
      [...params, cap + 1],
    );
    return Number(row.count);
  }

  /** The rows answered with `requestId` (a client may reuse its own X-Request-Id), newest first, at most `limit`. */
  findByRequestId(tenantId: string, requestId: string, limit: number): Promise<ExecutionLogSummary[]> {
    return this.logs.query(
      `SELECT ${SUMMARY_SELECT} FROM execution_logs WHERE tenant_id = $1 AND request_id = $2
       ORDER BY created_at DESC, id DESC LIMIT $3`,
      [tenantId, requestId, limit],
    );
  }

  /** The sum of the matching rows' costs in dollars, as the exact decimal text the database adds up ('0' for none). */
  async costTotal(tenantId: string, filter: LogFilter): Promise<string> {
    const { where, params } = whereClause(tenantId, filter);
    const [row] = await this.logs.query<{ total: string }[]>(
      `SELECT COALESCE(SUM(cost_usd), 0)::text AS total FROM execution_logs WHERE ${where}`,
      params,
    );
    return row.total;
  }

  findOne(tenantId: string, id: string): Promise<ExecutionLogEntity | null> {
    return this.logs.findOneBy({ tenantId, id });
  }

  /** The tenant's rows of these ids (those it has), with what a copy of the execution needs. */
  findForCopy(
    tenantId: string,
    ids: string[],
  ): Promise<
    Pick<ExecutionLogEntity, 'id' | 'endpointId' | 'status' | 'inputs' | 'parsedOutput' | 'truncatedFields'>[]
  > {
    if (ids.length === 0) return Promise.resolve([]);
    return this.logs.find({
      select: { id: true, endpointId: true, status: true, inputs: true, parsedOutput: true, truncatedFields: true },
      where: { tenantId, id: In(ids) },
    });
  }

  /**
   * Totals (bucket null) and one row per time bucket in a single scan (GROUPING SETS); percentiles with
   * percentile_cont. Buckets are UTC hours or days.
   */
  async stats(tenantId: string, filter: LogFilter, interval: StatsInterval): Promise<StatsRow[]> {
    const { where, params } = whereClause(tenantId, filter);
    const bucket = `date_trunc('${interval === 'hour' ? 'hour' : 'day'}', created_at, 'UTC')`;
    const rows: Record<string, unknown>[] = await this.logs.query(
      `SELECT ${bucket} AS bucket, GROUPING(${bucket}) AS is_total, ${FIGURES}
       FROM execution_logs WHERE ${where}
       GROUP BY GROUPING SETS ((${bucket}), ())`,
      params,
    );
    return rows.map((row) => ({
      bucket: Number(row.is_total) === 1 ? null : (row.bucket as Date),
      ...figuresOf(row),
    }));
  }

  /** The same figures as the totals of `stats`, one row per prompt that ran (executions with no prompt left out). */
  async promptStats(tenantId: string, filter: LogFilter): Promise<PromptStatsRow[]> {
    const { where, params } = whereClause(tenantId, filter);
    const rows: Record<string, unknown>[] = await this.logs.query(
      `SELECT prompt_id, ${FIGURES}
       FROM execution_logs WHERE ${where} AND prompt_id IS NOT NULL
       GROUP BY prompt_id`,
      params,
    );
    return rows.map((row) => ({
      promptId: String(row.prompt_id),
      ...figuresOf(row),
    }));
  }

  async promptErrorCodes(tenantId: string, filter: LogFilter): Promise<PromptErrorCodeRow[]> {
    const { where, params } = whereClause(tenantId, { ...filter, status: 'error' });
    const rows: Record<string, unknown>[] = await this.logs.query(
      `SELECT prompt_id, coalesce(error_code, 'unknown') AS error_code, count(*)::int AS count
       FROM execution_logs WHERE ${where} AND prompt_id IS NOT NULL GROUP BY 1, 2`,
      params,
    );
    return rows.map((row) => ({
      promptId: String(row.prompt_id),
      errorCode: String(row.error_code),
      count: Number(row.count),
    }));
  }

  /**
   * The totals per value of tag `key`: the TAG_GROUPS values with the most executions (ties by value), each on its
   * own, and one row (tagValue null) for the other values and the executions without the tag; errors per code the
   * same way.
   */
  async tagStats(
    tenantId: string,
    filter: LogFilter,
    key: string,
  ): Promise<{ rows: TagStatsRow[]; errorRows: TagErrorCodeRow[] }> {
    const { where, params } = whereClause(tenantId, filter);
    const k = `$${params.length + 1}`;
    const grouped = `WITH top AS (
         SELECT tags ->> ${k} AS value FROM execution_logs WHERE ${where} AND tags ? ${k}
         GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT ${TAG_GROUPS})
       SELECT CASE WHEN tags ->> ${k} IN (SELECT value FROM top) THEN tags ->> ${k} END AS tag_value`;
    const [rows, errorRows] = await Promise.all([
      this.logs.query<Record<string, unknown>[]>(
        `${grouped}, ${FIGURES} FROM execution_logs WHERE ${where} GROUP BY 1`,
        [...params, key],
      ),
      this.logs.query<Record<string, unknown>[]>(
        `${grouped}, coalesce(error_code, 'unknown') AS error_code, count(*)::int AS count
         FROM execution_logs WHERE ${where} AND status = 'error' GROUP BY 1, 2`,
        [...params, key],
      ),
    ]);
    return {
      rows: rows.map((row) => ({ tagValue: row.tag_value as string | null, ...figuresOf(row) })),
      errorRows: errorRows.map((row) => ({
        tagValue: row.tag_value as string | null,
        errorCode: String(row.error_code),
        count: Number(row.count),
      })),
    };
  }

  async errorCodes(tenantId: string, filter: LogFilter, interval: StatsInterval): Promise<ErrorCodeRow[]> {
    const { where, params } = whereClause(tenantId, { ...filter, status: 'error' });
    const bucket = `date_trunc('${interval === 'hour' ? 'hour' : 'day'}', created_at, 'UTC')`;
    const rows: Record<string, unknown>[] = await this.logs.query(
      `SELECT ${bucket} AS bucket, coalesce(error_code, 'unknown') AS error_code, count(*)::int AS count
       FROM execution_logs WHERE ${where} GROUP BY 1, 2`,
      params,
    );
    return rows.map((row) => ({
      bucket: row.bucket as Date,
      errorCode: String(row.error_code),
      count: Number(row.count),
    }));
  }

  /**
   * Retention (all tenants: a maintenance sweep, not a tenant operation): deletes at most `limit` rows older than
   * `cutoff`, in a transaction holding a transaction-level advisory lock, so on PostgreSQL only one instance sweeps at
   * a time. Returns the number deleted, or null when another instance holds the lock.
   */
  deleteOlderThan(cutoff: Date, limit: number, lockId: number): Promise<number | null> {
    return this.txHost.withTransaction(async () => {
      const [lock] = await this.logs.query<{ locked: boolean }[]>('SELECT pg_try_advisory_xact_lock($1) AS locked', [
        lockId,
      ]);
      if (!lock.locked) return null;
      const result = await this.logs.query<unknown[]>(
        `WITH doomed AS (SELECT id FROM execution_logs WHERE created_at < $1 ORDER BY created_at LIMIT $2)
         DELETE FROM execution_logs WHERE id IN (SELECT id FROM doomed)`,
        [cutoff, limit],
      );
      // TypeORM answers a DELETE with [rows, affected].
      return Number(result[1] ?? 0);
    });
  }
}

function whereClause(tenantId: string, filter: LogFilter): { where: string; params: unknown[] } {
  const conditions = ['tenant_id = $1'];
  const params: unknown[] = [tenantId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.endpointId) add('endpoint_id = ?', filter.endpointId);
  if (filter.keyId) add('key_id = ?', filter.keyId);
  if (filter.promptId) add('prompt_id = ?', filter.promptId);
  if (filter.assignment) add('assignment = ?', filter.assignment);
  if (filter.requestId) add('request_id = ?', filter.requestId);
  if (filter.source) add('source = ?', filter.source);
  if (filter.notSource) add('source <> ?', filter.notSource);
  if (filter.status) add('status = ?', filter.status);
  if (filter.from) add('created_at >= ?', filter.from);
  if (filter.to) add('created_at < ?', filter.to);
  conditions.push(...tagConditions(filter.tags, params));
  conditions.push(...scoreConditions(filter.scores, params));
  return { where: conditions.join(' AND '), params };
}
