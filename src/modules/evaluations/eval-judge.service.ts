import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import type { CheckResult } from '../datasets/dataset-check';
import type { TextResult } from '../llm/llm-client';
import { LlmRegistry } from '../llm/llm-registry';
import { ModelsService } from '../models/models.service';
import { createLiquidEngine } from '../prompts/template/liquid-template';
import { judgeVerdictKey } from './answer-key';
import { judgeCheckResult, judgeOutputSchema, type JudgeRubricScope } from './checks/judge';
import { EvalRunsRepository } from './eval-runs.repository';

/** How long a judge's answer may take. */
const JUDGE_TIMEOUT_MS = 60_000;
const JUDGE_MAX_TOKENS = 512;
/** A rubric renders within these bounds (time and size), like a prompt template. */
const RUBRIC_LIMITS = { timeoutMs: 100, maxOutputBytes: 256 * 1024 };

export interface JudgeCheck {
  llmModel: string;
  rubric: string;
  threshold: number;
}

/** A judge's result and what its call cost (0 for a kept verdict: the run made no call). */
export interface JudgeOutcome {
  result: CheckResult;
  costUsd: number;
  /** Whether the verdict came from the answer store, without a call. */
  cached: boolean;
}

/** Whose judgment it is, and whether a kept verdict may answer it (not in a `fresh` run). */
export interface JudgeAsk {
  tenantId: string;
  fresh: boolean;
}

/**
 * The `judge` check: the judge model reads the rubric (a Liquid template over `inputs`, `output` and `expected`) and
 * answers `{pass, score, reason}` as structured output, through the same provider clients as executions. The check
 * passes when the judge says pass with a score of at least the threshold. A judge that cannot answer fails the check
 * with the reason; what its call cost counts in the run. Verdicts are kept in the answer store by judge model and
 * rendered rubric, so judging an unchanged answer again makes no call unless the run is `fresh`.
 */
@Injectable()
export class EvalJudgeService {
  private readonly engine = createLiquidEngine(RUBRIC_LIMITS);

  constructor(
    private readonly models: ModelsService,
    private readonly llm: LlmRegistry,
    private readonly store: EvalRunsRepository,
  ) {}

  async judge(check: JudgeCheck, scope: JudgeRubricScope, ask: JudgeAsk): Promise<JudgeOutcome> {
    const model = this.models.find(check.llmModel);
    const provider = model && this.models.provider(model.provider);
    if (!model || !provider?.configured) {
      return failed(`The judge model '${check.llmModel}' cannot be called on this server`, 0);
    }
    let prompt: string;
    try {
      prompt = this.engine.parseAndRenderSync(check.rubric, { ...scope }) as string;
    } catch (error) {
      return failed(`The rubric did not render: ${(error as Error).message}`, 0);
    }
    const key = judgeVerdictKey(model.id, prompt);
    const kept = ask.fresh ? null : await this.store.findAnswer(ask.tenantId, key);
    if (kept) {
      return { result: judgeCheckResult(kept.output, check.threshold), costUsd: 0, cached: true };
    }
    const startedMs = Date.now();
    let answer: TextResult;
    try {
      answer = await this.llm.clientFor(provider).generateText({
        model: model.id,
        prompt,
        temperature: 0,
        maxOutputTokens: JUDGE_MAX_TOKENS,
        schema: { jsonSchema: judgeOutputSchema.jsonSchema, strict: judgeOutputSchema.strict },
        abortSignal: AbortSignal.timeout(JUDGE_TIMEOUT_MS),
      });
    } catch (error) {
      // The service's own errors say what failed in words fit for the caller; anything else is not repeated.
      const why = error instanceof AppError ? error.message : 'the provider did not answer';
      return failed(`The judge call failed: ${why}`, 0);
    }
    const costUsd = this.models.costOf(model.id, answer.usage) ?? 0;
    const verdict = { output: answer.object, latencyMs: Date.now() - startedMs, costUsd, logId: null };
    await this.store.saveAnswer(ask.tenantId, key, verdict);
    return { result: judgeCheckResult(answer.object, check.threshold), costUsd, cached: false };
  }
}

function failed(reason: string, costUsd: number): JudgeOutcome {
  return { result: { type: 'judge', pass: false, reason }, costUsd, cached: false };
}
