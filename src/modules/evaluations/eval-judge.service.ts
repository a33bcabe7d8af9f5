import { Injectable } from '@nestjs/common';
import type { CheckResult } from '../datasets/dataset-check';
import { LlmRegistry } from '../llm/llm-registry';
import { ModelsService } from '../models/models.service';
import { createLiquidEngine } from '../prompts/template/liquid-template';
import { judgeCheckResult, judgeOutputSchema, type JudgeRubricScope } from './checks/judge';

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

/** A judge's result and what its call cost. */
export interface JudgeOutcome {
  result: CheckResult;
  costUsd: number;
}

/**
 * The `judge` check: the judge model reads the rubric (a Liquid template over `inputs`, `output` and `expected`) and
 * answers `{pass, score, reason}` as structured output, through the same provider clients as executions. The check
 * passes when the judge says pass with a score of at least the threshold. A judge that cannot answer fails the check
 * with the reason; what its call cost counts in the run.
 */
@Injectable()
export class EvalJudgeService {
  private readonly engine = createLiquidEngine(RUBRIC_LIMITS);

  constructor(
    private readonly models: ModelsService,
    private readonly llm: LlmRegistry,
  ) {}

  async judge(check: JudgeCheck, scope: JudgeRubricScope): Promise<JudgeOutcome> {
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
    try {
      const answer = await this.llm.clientFor(provider).generateText({
        model: model.id,
        prompt,
        temperature: 0,
        maxOutputTokens: JUDGE_MAX_TOKENS,
        schema: { jsonSchema: judgeOutputSchema.jsonSchema, strict: judgeOutputSchema.strict },
        abortSignal: AbortSignal.timeout(JUDGE_TIMEOUT_MS),
      });
      const costUsd = this.models.costOf(model.id, answer.usage) ?? 0;
      return { result: judgeCheckResult(answer.object, check.threshold), costUsd };
    } catch (error) {
      return failed(`The judge call failed: ${(error as Error).message}`, 0);
    }
  }
}

function failed(reason: string, costUsd: number): JudgeOutcome {
  return { result: { type: 'judge', pass: false, reason }, costUsd };
}
