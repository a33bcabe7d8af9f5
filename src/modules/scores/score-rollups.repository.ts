import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../database/transactions';
import { type TagFilter, tagConditions } from '../../common/tags/tag-filter-sql';

/** The rollups' prompt id of executions without a prompt. */
const NO_PROMPT = '00000000-0000-0000-0000-000000000000';

/**
 * What the rollups sum, from the scores of `where` (over execution_scores, aliased s): the scores of one name per
 * tenant, endpoint, prompt, UTC hour of the execution and category ('' for boolean and numeric scores). Scores recorded
 * by evaluation runs are left out: they belong to evaluation executions, which the statistics leave out.
 */
export function scoreRollupSelectSql(where: string): string {
  return `SELECT s.tenant_id, s.endpoint_id, coalesce(s.prompt_id, '${NO_PROMPT}'::uuid) AS prompt_id,
            date_trunc('hour', s.executed_at) AS hour, s.name, coalesce(s.value_category, '') AS category,
            count(*) AS count, coalesce(sum(s.value_number), 0) AS sum,
            coalesce(sum(s.value_number * s.value_number), 0) AS sum_of_squares
     FROM execution_scores s
     WHERE s.source <> 'eval' AND (${where})
     GROUP BY 1, 2, 3, 4, 5, 6`;
}

/** Where a score is counted: its execution's endpoint, prompt and time, and its name. */
export interface ScoreCell {
  endpointId: string;
  promptId: string | null;
  executedAt: Date;
  name: string;
}

/** A span of time [from, to) and whether the rollups (whole hours) or the scores themselves answer it. */
export interface ScorePiece {
  fromRollups: boolean;
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
   * Inside the transaction that records a score: sums its cell again from the scores, so a new score adds to it and a
   * replaced one (another value, or another category) takes the old value out. A transaction-level advisory lock on
   * the cell makes two recordings in one cell sum one after the other, the second seeing the first's score.
   */
  async refresh(tenantId: string, cell: ScoreCell): Promise<void> {
    const tx = this.txHost.tx;
    const hour = new Date(Math.floor(cell.executedAt.getTime() / 3_600_000) * 3_600_000);
    const prompt = cell.promptId ?? NO_PROMPT;
    const params = [tenantId, cell.endpointId, prompt, hour, cell.name];
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1 || $2 || $3 || $4::text || $5))`, [
      tenantId,
      cell.endpointId,
      prompt,
      hour.toISOString(),
      cell.name,
    ]);
    await tx.query(
      `DELETE FROM execution_score_rollups
       WHERE tenant_id = $1 AND endpoint_id = $2 AND prompt_id = $3 AND hour = $4 AND name = $5`,
      params,
    );
    await tx.query(
      `INSERT INTO execution_score_rollups (tenant_id, endpoint_id, prompt_id, hour, name, category, count, sum,
         sum_of_squares)
       ${scoreRollupSelectSql(
         `s.tenant_id = $1 AND s.name = $5 AND s.executed_at >= $4 AND s.executed_at < $4::timestamptz + interval '1 hour'
          AND s.endpoint_id = $2 AND coalesce(s.prompt_id, '${NO_PROMPT}'::uuid) = $3`,
       )}`,
      params,
    );
  }

  /**
   * The sums of the read's scores over the pieces, per prompt (with byPrompt), per value of the group tag (with
   * groupTag) and per category. Whole hours come from the rollups unless the read needs the log rows (a tag filter or
   * tag groups); the rest from the scores.
   */
  async figures(tenantId: string, pieces: ScorePiece[], read: ScoreRead): Promise<ScoreFigures[]> {
    const needsLogs = read.tags !== undefined || read.groupTag !== undefined;
    const rollupSpans = needsLogs ? [] : pieces.filter((piece) => piece.fromRollups);
    const rowSpans = needsLogs ? pieces : pieces.filter((piece) => !piece.fromRollups);
    const [fromRollups, fromRows] = await Promise.all([
      rollupSpans.length ? this.fromRollups(tenantId, rollupSpans, read) : [],
      rowSpans.length ? this.fromScores(tenantId, rowSpans, read) : [],
    ]);
    return [...fromRollups, ...fromRows];
  }

  private async fromRollups(tenantId: string, spans: ScorePiece[], read: ScoreRead): Promise<ScoreFigures[]> {
    const params: unknown[] = [tenantId, read.name];
    const conditions = ['tenant_id = $1', 'name = $2', spansCondition('hour', spans, params)];
    if (read.endpointId) {
      params.push(read.endpointId);
      conditions.push(`endpoint_id = $${params.length}`);
    }
    const prompt = read.byPrompt ? 'prompt_id' : 'NULL::uuid';
    const rows = await this.txHost.tx.query<Record<string, unknown>[]>(
      `SELECT ${prompt} AS prompt_id, NULL AS tag_value, category, sum(count) AS count, sum(sum) AS sum,
              sum(sum_of_squares) AS sum_of_squares
       FROM execution_score_rollups WHERE ${conditions.join(' AND ')}
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
      "s.source <> 'eval'",
      spansCondition('s.executed_at', spans, params),
    ];
    if (read.endpointId) {
      params.push(read.endpointId);
      conditions.push(`s.endpoint_id = $${params.length}`);
    }
    const needsLogs = read.tags !== undefined || read.groupTag !== undefined;
    if (needsLogs) conditions.push(...tagConditions(read.tags, params, 'l.tags'));
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

  /** Retention: the rollups of the hours before `cutoff`, whose executions (and so scores) are gone. */
  async deleteBefore(cutoff: Date): Promise<void> {
    await this.txHost.tx.query(`DELETE FROM execution_score_rollups WHERE hour < date_trunc('hour', $1::timestamptz)`, [
      cutoff,
    ]);
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
