import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { Principal } from '../../common/auth/principal';
import { AppError } from '../../common/errors/app-error';
import { fieldsFingerprint } from '../cache/cache-key';
import type { CheckResult, DatasetCheck } from '../datasets/dataset-check';
import { DatasetsService } from '../datasets/datasets.service';
import type { EndpointDefinition } from '../endpoints/endpoint-definition';
import { EndpointsService } from '../endpoints/endpoints.service';
import { ExecutionService } from '../execution/execution.service';
import { ExecutionLogsService } from '../logs/execution-logs.service';
import { ExecutionScoresService } from '../scores/execution-scores.service';
import type { NewExecutionLog } from '../logs/new-execution-log';
import type { ExecutablePrompt } from '../prompts/executable-prompt';
import { answerKey } from './answer-key';
import { checksToRun } from './checks-to-run';
import type { EvalRun, StoredAnswer } from './eval-run';
import { EvalJudgeService } from './eval-judge.service';
import { EvalPromptsService } from './eval-prompts.service';
import { type ClaimedItem, EvalRunsRepository, type ItemResultValues } from './eval-runs.repository';
import { judgeRubricScope } from './checks/judge';
import { type CheckSubject, failedCallResult, runCheck } from './checks/run-check';

/** Runs whose settings are kept in memory per instance (the items of a run share them). */
const CONTEXTS_KEPT = 100;
/** How long an item waits for its log row to be written before its check scores are recorded on it. */
const LOG_WRITE_WAIT_MS = 2000;

/** What every item of a run needs, read once per run and instance. */
interface RunContext {
  run: EvalRun;
  principal: Principal;
  definition: EndpointDefinition;
  fields: string;
  candidate: ExecutablePrompt;
  baseline: ExecutablePrompt | null;
  checks: DatasetCheck[];
}

/**
 * One unit of work of a run: one item, repeat and side. Its answer comes from the answer store when the same prompt
 * version already answered the same inputs in the same repeat (unless the run is `fresh`), else from an execution of
 * kind `eval`; the dataset's checks then run on it, and each check's result is recorded as a score with source `eval`
 * on the answer's log row.
 */
@Injectable()
export class EvalItemService {
  private readonly contexts = new LRUCache<string, Promise<RunContext>>({ max: CONTEXTS_KEPT });

  constructor(
    private readonly runs: EvalRunsRepository,
    private readonly datasets: DatasetsService,
    private readonly endpoints: EndpointsService,
    private readonly evalPrompts: EvalPromptsService,
    private readonly execution: ExecutionService,
    private readonly logs: ExecutionLogsService,
    private readonly scores: ExecutionScoresService,
    private readonly judge: EvalJudgeService,
  ) {}

  /** The item's result; 'failed' when the run itself cannot run (it is then marked failed, with the reason). */
  async run(item: ClaimedItem): Promise<ItemResultValues | 'failed'> {
    let context: RunContext;
    try {
      context = await this.contextOf(item);
    } catch (error) {
      this.contexts.delete(item.runId);
      await this.runs.fail(item.runId, `The run cannot run: ${messageOf(error)}`);
      return 'failed';
    }
    const prompt = item.side === 'candidate' ? context.candidate : context.baseline!;
    const key = answerKey(prompt, context.fields, item.inputs, item.repeat);
    const stored = context.run.fresh ? null : await this.runs.findAnswer(item.tenantId, key);
    const answer = stored ? { ...stored, failure: null, log: null } : await this.execute(context, prompt, item, key);
    const subject: CheckSubject = {
      output: answer.output,
      expectedOutput: item.expectedOutput ?? null,
      outputFields: context.definition.outputFields,
      latencyMs: answer.latencyMs,
      costUsd: answer.costUsd,
      failure: answer.failure,
    };
    const results: CheckResult[] = [];
    let judgeCostUsd = 0;
    for (const check of context.checks) {
      if (check.type !== 'judge') {
        results.push(runCheck(check, subject));
      } else if (answer.failure !== null) {
        results.push(failedCallResult('judge', answer.failure));
      } else {
        const judged = await this.judge.judge(
          check,
          judgeRubricScope({
            inputs: item.inputs as Record<string, unknown>,
            output: answer.output,
            expectedOutput: item.expectedOutput,
          }),
          { tenantId: item.tenantId, fresh: context.run.fresh },
        );
        results.push(judged.result);
        judgeCostUsd += judged.costUsd;
      }
    }
    const passed = answer.failure === null && results.every((result) => result.pass);
    // A stored answer's log row holds the scores of the run that made it.
    if (answer.log) {
      // The scores repeat what the run item keeps: a failure to record them does not fail the item.
      await this.recordScores(item.tenantId, answer.logId!, answer.log, results).catch(() => undefined);
    }
    return {
      output: answer.output,
      passed,
      checks: results,
      errorMessage: answer.failure?.message ?? null,
      latencyMs: answer.latencyMs,
      costUsd: answer.costUsd,
      judgeCostUsd,
      cached: stored !== null,
      logId: answer.logId,
    };
  }

  /** Runs the item through the execution pipeline; a success is kept in the answer store. */
  private async execute(
    context: RunContext,
    prompt: ExecutablePrompt,
    item: ClaimedItem,
    key: string,
  ): Promise<StoredAnswer & { failure: CallFailure | null; log: NewExecutionLog }> {
    const { outcome, log, logId } = await this.execution.runForEvaluation({
      kind: 'eval',
      principal: context.principal,
      definition: context.definition,
      requestId: `eval-${item.runId}-${item.position}-${item.repeat}-${item.side}`,
      body: item.inputs,
      tags: { eval_run: item.runId },
      prompt,
    });
    const answer: StoredAnswer = {
      output: outcome.status === 'success' ? outcome.body : null,
      latencyMs: outcome.latencyMs,
      costUsd: log.costUsd,
      logId,
    };
    if (outcome.status === 'error') return { ...answer, failure: failureOf(outcome.error), log };
    await this.runs.saveAnswer(item.tenantId, key, answer);
    return { ...answer, failure: null, log };
  }

  /**
   * Each check type's result (every check of the type passed) as the boolean score `eval.<type>` with source `eval` on
   * the execution's log row, once its row is written.
   */
  private async recordScores(tenantId: string, logId: string, log: NewExecutionLog, results: CheckResult[]) {
    const byType = new Map<string, boolean>();
    for (const result of results) byType.set(result.type, (byType.get(result.type) ?? true) && result.pass);
    if (byType.size === 0) return;
    if (!(await this.logs.flushWithin(LOG_WRITE_WAIT_MS))) return;
    const execution = {
      logId,
      endpointId: log.endpointId,
      promptId: log.promptId,
      promptVersion: log.promptVersion,
      keyId: log.keyId,
      executedAt: log.createdAt,
    };
    const checks = [...byType].map(([type, pass]) => ({ type, pass }));
    await this.scores.recordEvalChecks(tenantId, execution, checks);
  }

  private contextOf(item: ClaimedItem): Promise<RunContext> {
    let context = this.contexts.get(item.runId);
    if (!context) {
      context = this.load(item.tenantId, item.runId);
      this.contexts.set(item.runId, context);
    }
    return context;
  }

  private async load(tenantId: string, runId: string): Promise<RunContext> {
    const run = (await this.runs.findRun(tenantId, runId))!;
    const definition = await this.endpoints.getDefinition(tenantId, run.endpointId);
    const dataset = await this.datasets.findForRun(tenantId, run.datasetId);
    const candidate = await this.evalPrompts.executable(tenantId, {
      promptId: run.candidatePromptId,
      versionNumber: run.candidateVersion,
    });
    const baseline =
      run.baselinePromptId === null
        ? null
        : await this.evalPrompts.executable(tenantId, {
            promptId: run.baselinePromptId,
            versionNumber: run.baselineVersion!,
          });
    const { inputFields, outputFields } = definition;
    return {
      run,
      principal: runPrincipal(tenantId, run.keyId),
      definition,
      fields: fieldsFingerprint({ inputFields, outputFields }),
      candidate,
      baseline,
      checks: checksToRun(dataset.checks, outputFields),
    };
  }
}

/**
 * Who an evaluation's executions run as: the key that started the run (its log rows and spend budgets name it), with
 * no rate limits (a run bounds its own calls) and no default tags.
 */
function runPrincipal(tenantId: string, keyId: string | null): Principal {
  return {
    keyId: keyId ?? '00000000-0000-0000-0000-000000000000',
    tenantId,
    tenantSlug: '',
    type: 'admin',
    permission: 'ReadWrite',
    environment: null,
    endpointIds: null,
    rateLimits: { perMinute: 0, perHour: 0, perDay: 0 },
    defaultTags: {},
  };
}

/** A failed call's code and message, as the execution answers them. */
interface CallFailure {
  code: string;
  message: string;
}

function failureOf(error: unknown): CallFailure {
  return { code: error instanceof AppError ? error.code : 'internal_error', message: messageOf(error) };
}

function messageOf(error: unknown): string {
  return error instanceof AppError || error instanceof Error ? error.message : String(error);
}
