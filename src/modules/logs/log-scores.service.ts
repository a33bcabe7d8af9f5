import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/auth/principal';
import { Clock } from '../../common/time/clock';
import {
  ExecutionScoresService,
  type RecordedScore,
  type ScoredExecution,
  type ScoreInput,
} from '../scores/execution-scores.service';
import type { ScoreSource } from '../scores/score-types';
import { ExecutionLogsRepository, type ExecutionLogSummary } from './execution-logs.repository';
import { ExecutionLogsService } from './execution-logs.service';
import { LogErrors } from './logs.errors';

/** Rows of one request id looked at, newest first: a client reusing its X-Request-Id gets its latest executions. */
const SAME_REQUEST_ROWS = 20;
/**
 * Log rows are written in batches (within about 100 ms, on whichever instance ran the execution): a score sent right
 * after its answer may arrive first. Its row is then looked for again for up to this long before the request id is
 * called unknown.
 */
const ROW_WAIT_MS = 1500;
const ROW_POLL_MS = 100;

/** A recorded score and whether it is the execution's first of that name (false: it replaced one). */
export interface ScoreRecording {
  score: RecordedScore;
  created: boolean;
}

/** Scores on execution log rows: found by request id (the execution API) or by log id (admin annotations, MCP). */
@Injectable()
export class LogScoresService {
  constructor(
    private readonly logs: ExecutionLogsRepository,
    private readonly writer: ExecutionLogsService,
    private readonly scores: ExecutionScoresService,
    private readonly clock: Clock,
  ) {}

  /**
   * Scores the execution answered with `requestId`, for `principal`: the key that made it, or any admin key of its
   * tenant. Another tenant's request id, or one another key made (an endpoint key asking), is unknown (404), as if it
   * did not exist.
   */
  async scoreRequest(
    principal: Principal,
    requestId: string,
    input: ScoreInput,
    source: ScoreSource = 'api',
  ): Promise<ScoreRecording> {
    const mayScore = (row: ExecutionLogSummary) => principal.type === 'admin' || row.keyId === principal.keyId;
    const row = await this.findRequest(principal.tenantId, requestId, mayScore);
    if (!row) throw LogErrors.requestNotFound(requestId);
    return this.scores.record(principal.tenantId, scoredExecutionOf(row), input, source);
  }

  /** Scores the log row `logId` of the tenant (404 when there is none). */
  async scoreLog(tenantId: string, logId: string, input: ScoreInput, source: ScoreSource): Promise<ScoreRecording> {
    const row = await this.logs.findOne(tenantId, logId);
    if (!row) throw LogErrors.logNotFound(logId);
    return this.scores.record(tenantId, scoredExecutionOf(row), input, source);
  }

  scoresOf(tenantId: string, logId: string): Promise<RecordedScore[]> {
    return this.scores.scoresOfLog(tenantId, logId);
  }

  /** The newest row of `requestId` the caller may score, waiting a moment for rows not yet written. */
  private async findRequest(
    tenantId: string,
    requestId: string,
    mayScore: (row: ExecutionLogSummary) => boolean,
  ): Promise<ExecutionLogSummary | undefined> {
    const look = async () => (await this.logs.findByRequestId(tenantId, requestId, SAME_REQUEST_ROWS)).find(mayScore);
    let row = await look();
    if (row) return row;
    // This instance's own pending rows first; another instance writes its own within its batch interval.
    await this.writer.flushWithin(ROW_WAIT_MS);
    const deadline = this.clock.now() + ROW_WAIT_MS;
    for (;;) {
      row = await look();
      if (row || this.clock.now() >= deadline) return row;
      await this.clock.sleep(ROW_POLL_MS);
    }
  }
}

function scoredExecutionOf(row: ExecutionLogSummary): ScoredExecution {
  return {
    logId: row.id,
    endpointId: row.endpointId,
    promptId: row.promptId,
    promptVersion: row.promptVersion,
    keyId: row.keyId,
    executedAt: row.createdAt,
  };
}
