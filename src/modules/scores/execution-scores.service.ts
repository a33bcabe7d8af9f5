import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../database/transactions';
import { ExecutionScoresRepository } from './execution-scores.repository';
import { ScoreConfigsRepository } from './score-configs.repository';
import { ScoreRollupsRepository } from './score-rollups.repository';
import { ScoreErrors } from './scores.errors';
import { EVAL_SCORE_PREFIX, type ScoreSource, type ScoreValue } from './score-types';
import { scoreCommentProblem, scoreValueOf, scoreValueProblem, storedScoreValue } from './score-value';

/** The execution a score is recorded on: its log row and what statistics group it by. */
export interface ScoredExecution {
  logId: string;
  endpointId: string;
  promptId: string | null;
  promptVersion: number | null;
  keyId: string | null;
  /** When the execution ran (the log row's createdAt). */
  executedAt: Date;
}

/** A score as given: its config's name, the value, an optional comment. */
export interface ScoreInput {
  name: string;
  value: unknown;
  comment?: string | null;
}

/** One check type's result on an evaluated execution (every check of the type passed). */
export interface EvalCheckScore {
  type: string;
  pass: boolean;
}

/** A recorded score, its value typed back. */
export interface RecordedScore {
  name: string;
  value: ScoreValue;
  comment: string | null;
  source: ScoreSource;
  createdAt: Date;
}

/** Records scores on executions (any surface: the execution API, admin annotations, MCP, evaluations) and reads them. */
@Injectable()
export class ExecutionScoresService {
  constructor(
    private readonly txHost: TransactionHost,
    private readonly configs: ScoreConfigsRepository,
    private readonly scores: ExecutionScoresRepository,
    private readonly rollups: ScoreRollupsRepository,
  ) {}

  /**
   * Records `input` on the execution: one value per execution and name, a later one replacing the earlier (`created`
   * false). The name must be one of the tenant's score configs and the value fit it (400 naming `name` or `value`).
   * The config stays locked until the score is stored, so it cannot be renamed, retyped or deleted meanwhile.
   */
  record(
    tenantId: string,
    execution: ScoredExecution,
    input: ScoreInput,
    source: ScoreSource,
  ): Promise<{ score: RecordedScore; created: boolean }> {
    const commentProblem = scoreCommentProblem(input.comment);
    if (commentProblem) throw ScoreErrors.badComment(commentProblem);
    return this.txHost.withTransaction(async () => {
      const config = await this.configs.findByNameForScoring(tenantId, input.name);
      if (!config) throw ScoreErrors.undeclaredName(input.name);
      const problem = scoreValueProblem(config.name, config, input.value);
      if (problem) throw ScoreErrors.badValue(problem);
      const { score, created } = await this.scores.upsert({
        tenantId,
        ...execution,
        name: config.name,
        configId: config.id,
        dataType: config.dataType,
        ...storedScoreValue(config.dataType, input.value as ScoreValue),
        comment: input.comment ?? null,
        source,
      });
      // The statistics' hourly sums change with the score, in the same transaction.
      await this.rollups.refresh(tenantId, { ...execution, name: config.name });
      return { score: toRecordedScore(score), created };
    });
  }

  /**
   * An evaluation's check results on its execution's log row: each the boolean score `eval.<type>` with source `eval`,
   * replacing an earlier one of the name. They need no declared config (and take none). The statistics' hourly sums
   * leave them out, so they change only when one replaced a score recorded another way.
   */
  recordEvalChecks(tenantId: string, execution: ScoredExecution, checks: EvalCheckScore[]): Promise<void> {
    return this.txHost.withTransaction(async () => {
      for (const check of checks) {
        const name = `${EVAL_SCORE_PREFIX}${check.type}`;
        const { created } = await this.scores.upsert({
          tenantId,
          ...execution,
          name,
          configId: null,
          dataType: 'boolean',
          ...storedScoreValue('boolean', check.pass),
          comment: null,
          source: 'eval',
        });
        if (!created) await this.rollups.refresh(tenantId, { ...execution, name });
      }
    });
  }

  /** A log row's scores, by name. */
  async scoresOfLog(tenantId: string, logId: string): Promise<RecordedScore[]> {
    const rows = await this.scores.findByLog(tenantId, logId);
    return rows.map(toRecordedScore);
  }
}

function toRecordedScore(row: {
  name: string;
  dataType: Parameters<typeof scoreValueOf>[0];
  valueNumber: number | null;
  valueCategory: string | null;
  comment: string | null;
  source: ScoreSource;
  createdAt: Date;
}): RecordedScore {
  return {
    name: row.name,
    value: scoreValueOf(row.dataType, row),
    comment: row.comment,
    source: row.source,
    createdAt: row.createdAt,
  };
}
