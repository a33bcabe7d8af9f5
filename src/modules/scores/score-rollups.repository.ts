import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../database/transactions';
import { type TagFilter, tagConditions } from '../../common/tags/tag-filter-sql';

/** The rollups' prompt id of executions without a prompt. */
const NO_PROMPT = '00000000-0000-0000-0000-000000000000';
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The start of the UTC hour or day holding `time` (an SQL timestamptz expression), whatever the session's time zone. */
const utcStart = (unit: 'hour' | 'day', time: string) =>
  `date_trunc('${unit}', ${time} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;

/**
 * The hourly rows of the rollups, from the scores of `where` (over execution_scores, aliased s): the scores of one name
 * per tenant, endpoint, prompt, UTC hour of the execution and category ('' for boolean and numeric scores), their
 * count, sum and sum of squares. Scores recorded by evaluation runs are left out: they belong to evaluation
 * executions, which the statistics leave out.
 */
export function scoreHourRollupsSql(where: string): string {
  return `INSERT INTO execution_score_rollups (tenant_id, endpoint_id, prompt_id, span, start, name, category, count, sum,
       sum_of_squares)
     SELECT s.tenant_id, s.endpoint_id, coalesce(s.prompt_id, '${NO_PROMPT}'::uuid), 'hour',
            ${utcStart('hour', 's.executed_at')}, s.name, coalesce(s.value_category, ''),
            count(*), coalesce(sum(s.value_number), 0), coalesce(sum(s.value_number * s.value_number), 0)
     FROM execution_scores s
     WHERE s.source <> 'eval' AND (${where})
     GROUP BY 1, 2, 3, 4, 5, 6, 7`;
}

/** The daily rows of the rollups, summed from the hourly rows of `where` (over execution_score_rollups, aliased r). */
export function scoreDayRollupsSql(where: string): string {
  return `INSERT INTO execution_score_rollups (tenant_id, endpoint_id, prompt_id, span, start, name, category, count, sum,
       sum_of_squares)
     SELECT r.tenant_id, r.endpoint_id, r.prompt_id, 'day', ${utcStart('day', 'r.start')}, r.name, r.category,
            sum(r.count), sum(r.sum), sum(r.sum_of_squares)
     FROM execution_score_rollups r
     WHERE r.span = 'hour' AND (${where})
     GROUP BY 1, 2, 3, 4, 5, 6, 7`;
}

/** Where a score is counted: its execution's endpoint, prompt and time, and its name. */
export interface ScoreCell {
  endpointId: string;
  promptId: string | null;
  executedAt: Date;
  name: string;
}

/** A span of time [from, to) and what answers it: the scores themselves, or the hourly or daily rollups. */
export interface ScorePiece {
  source: 'scores' | 'hour' | 'day';
  from: Date;
  to: Date;
}

/** Which scores a read sums: one name, over pieces of time, optionally one endpoint and executions with some tags. */
export interface ScoreRead {
  name: string;
  endpointId?: string;
  /** Only executions whose log row carries these tags (read from the scores joined to their log rows). */
  tags?: TagFilter;
  byPrompt: boolean;
  /** Sums per value of this tag key as well (from the scores joined to their log rows). */
  groupTag?: string;
  /**
   * Only the scores of one source's executions (from the scores joined to their log rows): `Eval`, evaluation runs'
   * instead of the others' (the hourly sums leave evaluations out); `Api`, the execution API's calls alone (the hourly
   * sums hold every source but evaluations).
   */
  executionSource?: 'Eval' | 'Api';
}

/** The sums of the scores of a group: per category for categorical scores ('' otherwise). */
export interface ScoreFigures {
  promptId: string | null;
  tagValue: string | null;
  category: string;
  count: number;
  sum: number;
  sumOfSquares: number;
}

@Injectable()
export class ScoreRollupsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  /**
   * Inside the transaction that records a score: sums its hour's cell again from the scores, and its day's cell from
   * the hours, so a new score adds to them and a replaced one (another value, or another category) takes the old value
   * out. A transaction-level advisory lock on the day's cell makes two recordings in one day sum one after the other,
   * the second seeing the first's score.
   */
  async refresh(tenantId: string, cell: ScoreCell): Promise<void> {
    const tx = this.txHost.tx;
    const hour = new Date(Math.floor(cell.executedAt.getTime() / HOUR_MS) * HOUR_MS);
    const day = new Date(Math.floor(cell.executedAt.getTime() / DAY_MS) * DAY_MS);
    const prompt = cell.promptId ?? NO_PROMPT;
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1 || $2 || $3 || $4 || $5))`, [
      tenantId,
      cell.endpointId,
      prompt,
      day.toISOString(),
      cell.name,
    ]);
    const key = `tenant_id = $1 AND endpoint_id = $2 AND prompt_id = $3 AND name = $4`;
    const params = [tenantId, cell.endpointId, prompt, cell.name];
    await tx.query(
      `DELETE FROM execution_score_rollups WHERE ${key} AND ((span = 'hour' AND start = $5) OR (span = 'day' AND start = $6))`,
      [...params, hour, day],
    );
    await tx.query(
      scoreHourRollupsSql(
        `s.tenant_id = $1 AND s.name = $4 AND s.executed_at >= $5 AND s.executed_at < $6
         AND s.endpoint_id = $2 AND coalesce(s.prompt_id, '${NO_PROMPT}'::uuid) = $3`,
      ),
      [...params, hour, new Date(hour.getTime() + HOUR_MS)],
    );
    await tx.query(
      scoreDayRollupsSql(
        `r.tenant_id = $1 AND r.endpoint_id = $2 AND r.prompt_id = $3 AND r.name = $4 AND r.start >= $5 AND r.start < $6`,
      ),
      [...params, day, new Date(day.getTime() + DAY_MS)],
    );
  }

  /**
   * The sums of the read's scores over the pieces, per prompt (with byPrompt), per value of the group tag (with
   * groupTag) and per category. Whole hours come from the rollups unless the read needs the log rows (a tag filter or
   * tag groups); the rest from the scores.
   */
  async figures(tenantId: string, pieces: ScorePiece[], read: ScoreRead): Promise<ScoreFigures[]> {
    const needsLogs = needsLogRows(read);
    const rollupSpans = needsLogs ? [] : pieces.filter((piece) => piece.source !== 'scores');
    const rowSpans = needsLogs ? pieces : pieces.filter((piece) => piece.source === 'scores');
    const [fromRollups, fromRows] = await Promise.all([
      rollupSpans.length ? this.fromRollups(tenantId, rollupSpans, read) : [],
      rowSpans.length ? this.fromScores(tenantId, rowSpans, read) : [],
    ]);
    return [...fromRollups, ...fromRows];
  }

  private async fromRollups(tenantId: string, spans: ScorePiece[], read: ScoreRead): Promise<ScoreFigures[]> {
    const params: unknown[] = [tenantId, read.name];
    let endpoint = '';
    if (read.endpointId) {
      params.push(read.endpointId);
      endpoint = ` AND endpoint_id = $${params.length}`;
    }
    const prompt = read.byPrompt ? 'prompt_id' : 'NULL::uuid';
    // One range of the primary key (tenant, name, span, start) per piece.
    const ranges = spans.map((span) => {
      params.push(span.source, span.from, span.to);
      const n = params.length;
      return `SELECT ${prompt} AS prompt_id, category, count, sum, sum_of_squares FROM execution_score_rollups
              WHERE tenant_id = $1 AND name = $2 AND span = $${n - 2} AND start >= $${n - 1} AND start < $${n}${endpoint}`;
    });
    const rows = await this.txHost.tx.query<Record<string, unknown>[]>(
      `SELECT prompt_id, NULL AS tag_value, category, sum(count) AS count, sum(sum) AS sum,
              sum(sum_of_squares) AS sum_of_squares
       FROM (${ranges.join(' UNION ALL ')}) pieces
       GROUP BY 1, 2, 3`,
      params,
    );
    return rows.map(figuresOf);
  }

  private async fromScores(tenantId: string, spans: ScorePiece[], read: ScoreRead): Promise<ScoreFigures[]> {
    const params: unknown[] = [tenantId, read.name];
    const conditions = [
      's.tenant_id = $1',
      's.name = $2',
      read.executionSource === 'Eval' ? "l.source = 'Eval'" : "s.source <> 'eval'",
      spansCondition('s.executed_at', spans, params),
    ];
    if (read.endpointId) {
      params.push(read.endpointId);
      conditions.push(`s.endpoint_id = $${params.length}`);
    }
    const needsLogs = needsLogRows(read);
    if (needsLogs) conditions.push(...tagConditions(read.tags, params, 'l.tags'));
    if (read.executionSource === 'Api') conditions.push("l.source = 'Api'");
    let tagValue = 'NULL';
    if (read.groupTag !== undefined) {
      params.push(read.groupTag);
      tagValue = `l.tags ->> $${params.length}`;
    }
    const prompt = read.byPrompt ? `coalesce(s.prompt_id, '${NO_PROMPT}'::uuid)` : 'NULL::uuid';
    const rows = await this.txHost.tx.query<Record<string, unknown>[]>(
      `SELECT ${prompt} AS prompt_id, ${tagValue} AS tag_value, coalesce(s.value_category, '') AS category,
              count(*) AS count, coalesce(sum(s.value_number), 0) AS sum,
              coalesce(sum(s.value_number * s.value_number), 0) AS sum_of_squares
       FROM execution_scores s${needsLogs ? ' JOIN execution_logs l ON l.id = s.log_id' : ''}
       WHERE ${conditions.join(' AND ')}
       GROUP BY 1, 2, 3`,
      params,
    );
    return rows.map(figuresOf);
  }

  /**
   * Retention: the rollups of the hours, and of the whole days, before `cutoff` (a whole hour), whose executions (and
   * so scores) are gone.
   */
  async deleteBefore(cutoff: Date): Promise<void> {
    const day = new Date(Math.floor(cutoff.getTime() / DAY_MS) * DAY_MS);
    await this.txHost.tx.query(
      `DELETE FROM execution_score_rollups WHERE (span = 'hour' AND start < $1) OR (span = 'day' AND start < $2)`,
      [cutoff, day],
    );
  }
}

/** `column` within one of the spans, their bounds appended to `params`. */
function spansCondition(column: string, spans: ScorePiece[], params: unknown[]): string {
  const ranges = spans.map((span) => {
    params.push(span.from, span.to);
    return `(${column} >= $${params.length - 1} AND ${column} < $${params.length})`;
  });
  return ranges.length === 1 ? ranges[0] : `(${ranges.join(' OR ')})`;
}

function figuresOf(row: Record<string, unknown>): ScoreFigures {
  const promptId = row.prompt_id as string | null;
  const tagValue = row.tag_value as string | null | undefined;
  return {
    promptId: promptId === null || promptId === NO_PROMPT ? null : promptId,
    tagValue: tagValue ?? null,
    category: String(row.category),
    count: Number(row.count),
    sum: Number(row.sum),
    sumOfSquares: Number(row.sum_of_squares),
  };
}

/** Whether a read needs the scores' log rows: for their tags, or for one source's executions. */
function needsLogRows(read: ScoreRead): boolean {
  return read.tags !== undefined || read.groupTag !== undefined || read.executionSource !== undefined;
}
