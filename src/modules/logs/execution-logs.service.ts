import { Inject, Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from '../../common/errors/database-unavailable';
import { AppLogger } from '../../common/logging/app-logger';
import { Metrics } from '../../common/metrics/metrics';
import { DatabaseShutdown } from '../../database/database-shutdown';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import {
  ExecutionLogDetailResponse,
  ExecutionLogPageResponse,
  toExecutionLogDetailResponse,
  toExecutionLogResponse,
} from './dto/execution-log.response';
import { pageWindow } from '../../common/http/paging';
import { type ListLogsQuery, LOG_PAGE_SIZE } from './dto/list-logs.dto';
import { ExecutionLogRollupsRepository } from './execution-log-rollups.repository';
import { ExecutionLogsRepository, LogFilter, PreparedLog } from './execution-logs.repository';
import { rollUp } from './log-rollup';
import { type CappedLogField, capLogText } from './log-field-cap';
import { DEFAULT_QUEUE_OPTIONS, LogWriteQueue, LogWriteQueueState } from './log-write-queue';
import type { NewExecutionLog } from './new-execution-log';
import { LogErrors } from './logs.errors';

/** GET /logs counts matching rows up to this many; an exact count over millions of rows would cost a full range scan. */
export const TOTAL_CAP = 10_000;
/** Shutdown flushes pending logs; if the database stays away this long, the rest is reported lost. */
const SHUTDOWN_FLUSH_MS = 10_000;

/**
 * Execution logs: `record` queues a row and returns at once (the execution's response never waits for the database);
 * the queue writes batches with one multi-row INSERT within ~100 ms. Reads are tenant-scoped.
 */
@Injectable()
export class ExecutionLogsService {
  private readonly queue: LogWriteQueue<PreparedLog>;
  /** Counts each execution recorded, by outcome (success or its error code) and whether the cache answered it. */
  private readonly metrics: Metrics | null = null;

  constructor(
    private readonly logs: ExecutionLogsRepository,
    private readonly rollups: ExecutionLogRollupsRepository,
    private readonly logger: AppLogger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    shutdown: DatabaseShutdown,
    @Optional() metrics?: Metrics,
  ) {
    this.queue = new LogWriteQueue((rows) => this.write(rows), DEFAULT_QUEUE_OPTIONS, {
      // An unreachable database has its own throttled warning; the rows stay queued and are written once it is back.
      writeFailed: (error, retryInMs, queued) => {
        if (!isDatabaseUnavailable(error))
          logger.write('warn', 'Writing execution logs failed; will retry', {
            error: messageOf(error),
            retryInMs,
            queued,
          });
      },
      dropping: (dropped) =>
        logger.write('error', 'The execution log queue is full (database unreachable?); new logs are dropped', {
          dropped,
        }),
    });
    // The final flush: after the HTTP server has closed (every answered execution has recorded its row), before the
    // database closes.
    shutdown.beforeClose(() => this.drainForShutdown());
    if (metrics?.enabled) {
      this.metrics = metrics;
      metrics.watchLogQueue(() => this.queue.state());
    }
  }

  /** Queues the row and returns its id (fixed now, before the row is written). */
  record(entry: NewExecutionLog): string {
    // Capped here, before the row is queued: what the queue holds is bounded as well as what is stored.
    this.metrics?.executionFinished(
      entry.status === 'success' ? 'success' : (entry.errorCode ?? 'error'),
      entry.cached,
    );
    const { row, bytes } = prepare(entry, this.config.logFieldMaxBytes);
    this.queue.enqueue(row, bytes);
    return row.id;
  }

  /** Resolves once every log recorded so far is stored (tests; shutdown). */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  /**
   * Writes the logs recorded so far now, for an answer that names its row: true once they are stored, false when the
   * database failed or took longer than `maxWaitMs` (the rows stay queued and are written when it accepts them).
   */
  async flushWithin(maxWaitMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), maxWaitMs);
    });
    try {
      return await Promise.race([
        this.queue.flush().then(
          () => true,
          () => false,
        ),
        expired,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  writerState(): LogWriteQueueState {
    return this.queue.state();
  }

  async list(tenantId: string, query: ListLogsQuery): Promise<ExecutionLogPageResponse> {
    const { page, pageSize, offset } = pageWindow(query, LOG_PAGE_SIZE.default);
    const filter = filterOf(query);
    const [rows, count] = await Promise.all([
      this.logs.findPage(tenantId, filter, offset, pageSize),
      this.logs.countUpTo(tenantId, filter, TOTAL_CAP),
    ]);
    return {
      items: rows.map(toExecutionLogResponse),
      page,
      pageSize,
      total: Math.min(count, TOTAL_CAP),
      totalIsExact: count <= TOTAL_CAP,
    };
  }

  async get(tenantId: string, id: string): Promise<ExecutionLogDetailResponse> {
    const log = await this.logs.findOne(tenantId, id);
    if (!log) throw LogErrors.logNotFound(id);
    return toExecutionLogDetailResponse(log);
  }

  private async drainForShutdown(): Promise<void> {
    const lost = await this.queue.close(SHUTDOWN_FLUSH_MS);
    if (lost > 0)
      this.logger.write('error', 'Execution logs lost at shutdown: the database did not accept them', { lost });
  }

  /**
   * One multi-row INSERT. A row the database refuses (its endpoint was deleted meanwhile, a value out of range) must not
   * hold the others back: on such a data error the batch is retried row by row and refused rows are dropped. Ids are
   * fixed at record time, so rows a retried batch already stored are refused as duplicates, never written twice.
   */
  private async write(rows: PreparedLog[]): Promise<void> {
    try {
      await this.store(rows);
      return;
    } catch (error) {
      if (!isDataError(error)) throw error;
    }
    for (const row of rows) {
      try {
        await this.store([row]);
      } catch (error) {
        if (!isDataError(error)) throw error;
        if (sqlStateOf(error) !== UNIQUE_VIOLATION) {
          this.logger.write('error', 'An execution log was refused by the database', {
            requestId: row.requestId,
            sqlState: sqlStateOf(error),
            error: messageOf(error),
          });
        }
      }
    }
  }

  /** The rows and their rollups, in one statement: the statistics' sums always agree with the rows stored. */
  private store(rows: PreparedLog[]): Promise<void> {
    const groups = rollUp(rows);
    return this.logs.insertBatch(rows, (params) => this.rollups.upserts(groups, params));
  }
}

export function filterOf(
  query: Pick<
    ListLogsQuery,
    'endpointId' | 'source' | 'status' | 'promptId' | 'assignment' | 'requestId' | 'from' | 'to'
  >,
): LogFilter {
  const from = query.from ? new Date(query.from) : undefined;
  const to = query.to ? new Date(query.to) : undefined;
  if (from && to && from >= to) throw LogErrors.periodReversed();
  return {
    endpointId: query.endpointId,
    source: query.source,
    status: query.status,
    promptId: query.promptId,
    assignment: query.assignment,
    requestId: query.requestId,
    from,
    to,
  };
}

const UNIQUE_VIOLATION = '23505';

function sqlStateOf(error: unknown): string | undefined {
  return error instanceof QueryFailedError
    ? (error as QueryFailedError & { driverError?: { code?: string } }).driverError?.code
    : undefined;
}

/** SQLSTATE classes 22 (data exception) and 23 (integrity constraint): retrying the same row cannot help. */
function isDataError(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

// PostgreSQL text and jsonb cannot hold NUL characters.
const withoutNul = (text: string | null) => (text === null ? null : text.replaceAll('\u0000', ''));
const clip = (text: string | null, max: number) => (text === null ? null : text.slice(0, max));

/** The longest error message an attempt of the log keeps, in characters. */
const ATTEMPT_ERROR_MAX_CHARS = 2000;

/**
 * JSON text that jsonb accepts. JSON.stringify writes NUL and lone surrogates (half of a UTF-16 pair, which a JSON
 * body may carry as an escape) as `\u` escapes that jsonb refuses: NUL is dropped and a lone surrogate becomes U+FFFD.
 * Escaped backslashes are matched as pairs, so the text `\u0000` typed by a caller is kept as it is.
 */
const UNSTORABLE_ESCAPE = /\\(\\|u0000|ud[89a-f][0-9a-f]{2})/gi;

function json(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return null;
    return text.replace(UNSTORABLE_ESCAPE, (escape: string, code: string) =>
      code === '\\' ? escape : code.toLowerCase() === 'u0000' ? '' : '\\ufffd',
    );
  } catch {
    return null;
  }
}

/**
 * Copies what the row needs (nothing more stays referenced) and serialises it once, measuring its size. Each of the
 * large fields keeps at most `maxFieldBytes` bytes: the text itself for `renderedPrompt` and `rawResponse`, the JSON
 * text for `inputs` and `parsedOutput` (a longer JSON value is stored as the string of its cut JSON text). The fields
 * cut are listed in `truncatedFields`.
 */
function prepare(entry: NewExecutionLog, maxFieldBytes: number): { row: PreparedLog; bytes: number } {
  const truncatedFields: CappedLogField[] = [];
  const capText = (field: CappedLogField, text: string | null): string | null => {
    if (text === null) return null;
    const capped = capLogText(text, maxFieldBytes);
    if (capped.truncated) truncatedFields.push(field);
    return capped.text;
  };
  const capJson = (field: CappedLogField, text: string | null): string | null => {
    if (text === null) return null;
    const capped = capLogText(text, maxFieldBytes);
    if (!capped.truncated) return text;
    truncatedFields.push(field);
    return JSON.stringify(capped.text);
  };
  const row: PreparedLog = {
    id: randomUUID(),
    tenantId: entry.tenantId,
    endpointId: entry.endpointId,
    promptId: entry.promptId,
    promptVersion: entry.promptVersion,
    assignment: entry.assignment,
    source: entry.source,
    keyId: entry.keyId,
    keyEnvironment: entry.keyEnvironment,
    requestId: clip(entry.requestId, 128) ?? '',
    status: entry.status,
    httpStatus: entry.httpStatus,
    errorCode: clip(entry.errorCode, 64),
    errorMessage: withoutNul(entry.errorMessage),
    cached: entry.cached,
    llmModel: clip(entry.llmModel, 200),
    inputTokens: entry.inputTokens,
    outputTokens: entry.outputTokens,
    costUsd: entry.costUsd,
    latencyMs: Math.max(0, Math.round(entry.latencyMs)),
    streamed: entry.streamed,
    ttftMs: entry.ttftMs === null ? null : Math.max(0, Math.round(entry.ttftMs)),
    finishReason: clip(entry.finishReason, 32),
    inputsJson: capJson('inputs', json(entry.inputs)),
    renderedPrompt: capText('renderedPrompt', withoutNul(entry.renderedPrompt)),
    rawResponse: capText('rawResponse', withoutNul(entry.rawResponse)),
    parsedOutputJson: capJson('parsedOutput', json(entry.parsedOutput)),
    truncatedFields,
    // At most 16 entries (4 models, each tried up to 4 times), each of bounded size: its error message is cut.
    attemptsJson:
      json(
        entry.attempts.map((attempt) => ({
          ...attempt,
          llmModel: clip(attempt.llmModel, 200),
          errorMessage: clip(withoutNul(attempt.errorMessage), ATTEMPT_ERROR_MAX_CHARS),
        })),
      ) ?? '[]',
    createdAt: entry.createdAt ?? new Date(),
  };
  const bytes =
    512 +
    (row.inputsJson?.length ?? 0) +
    (row.parsedOutputJson?.length ?? 0) +
    (row.renderedPrompt?.length ?? 0) +
    (row.rawResponse?.length ?? 0) +
    (row.errorMessage?.length ?? 0) +
    row.attemptsJson.length;
  return { row, bytes };
}
