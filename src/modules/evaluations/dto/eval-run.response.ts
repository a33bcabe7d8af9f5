import { ApiProperty } from '@nestjs/swagger';
import { ApiAnyJson, ApiEnum, ApiInteger, ApiNullableEnum, ApiUuid } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import { DATASET_CHECK_TYPES, type CheckResult, type DatasetCheckType } from '../../datasets/dataset-check';
import { EVAL_RUN_STATUSES, type EvalRun, type EvalRunStatus, type EvalRunSummary } from '../eval-run';
import type { ItemReport, SideAnswer, SideReport } from '../run-report';
import type { ItemVerdict as Verdict } from '../run-rules/item-verdict';

const VERDICTS: Verdict[] = ['improved', 'regressed', 'unchanged_pass', 'unchanged_fail'];

export class EvalPromptVersionResponse {
  @ApiUuid()
  promptId: string;
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  versionNumber: number;
}

export class EvalRunSummaryResponse {
  /** The dataset's items at the run's version. */
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  items: number;
  /** Items the candidate passes (with repeats: most of its repeats pass). */
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  passed: number;
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  failed: number;
  /** passed / items, 0–1. */
  @ApiProperty({ minimum: 0, maximum: 1 })
  passRate: number;
  /** The baseline's share of passed items; null without a baseline. */
  @ApiProperty({ type: Number, nullable: true, minimum: 0, maximum: 1 })
  baselinePassRate: number | null;
  /** Items the baseline passes and the candidate fails. */
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  regressions: number;
  /** Items the candidate passes and the baseline fails. */
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  improvements: number;
  /** What the run's model calls cost (answers from the store cost nothing again), judges included. */
  costUsd: number;
  /** From the first claimed item to the end (so far, while running); null before it started. */
  @ApiProperty({ type: 'integer', nullable: true, minimum: 0 })
  durationMs: number | null;
}

/** An evaluation run. */
export class EvalRunResponse {
  @ApiUuid()
  id: string;
  @ApiUuid()
  endpointId: string;
  @ApiUuid()
  datasetId: string;
  /** The dataset's version the run read its items at. */
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  datasetVersion: number;
  @ApiEnum('EvalRunStatus', EVAL_RUN_STATUSES)
  status: EvalRunStatus;
  candidate: EvalPromptVersionResponse;
  /** Null when the run compares with nothing. */
  @ApiProperty({ type: () => EvalPromptVersionResponse, nullable: true })
  baseline: EvalPromptVersionResponse | null;
  @ApiInteger({ minimum: 1, maximum: 10 })
  concurrency: number;
  @ApiInteger({ minimum: 1, maximum: 5 })
  repeats: number;
  fresh: boolean;
  summary: EvalRunSummaryResponse;
  /** Why a failed run could not run; null otherwise. */
  errorMessage: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export class EvalCheckResultResponse {
  @ApiEnum('DatasetCheckType', DATASET_CHECK_TYPES)
  type: DatasetCheckType;
  pass: boolean;
  /** Why it failed (or the judge's reason); null when a check passed without one. */
  reason: string | null;
}

export class EvalSideAnswerResponse {
  @ApiInteger({ minimum: 0, maximum: 4 })
  repeat: number;
  /** Null until it has run. */
  passed: boolean | null;
  /** The execution body (null when the call failed or has not run). */
  @ApiAnyJson()
  output: unknown;
  checks: EvalCheckResultResponse[];
  /** The execution's error when the call failed. */
  errorMessage: string | null;
  @ApiProperty({ type: 'integer', nullable: true, minimum: 0 })
  latencyMs: number | null;
  costUsd: number | null;
  /** True when the answer came from the evaluation answer store (no provider call). */
  cached: boolean | null;
  /** The execution log row of the answer (source Eval). */
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  logId: string | null;
}

export class EvalSideResponse {
  /** Whether the side passes: with repeats, when most of them pass; null until every repeat ran. */
  passed: boolean | null;
  /** The first repeat's answer. */
  @ApiAnyJson()
  output: unknown;
  checks: EvalCheckResultResponse[];
  errorMessage: string | null;
  @ApiProperty({ type: 'integer', nullable: true, minimum: 0 })
  latencyMs: number | null;
  costUsd: number | null;
  cached: boolean | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  logId: string | null;
  /** Every repeat's answer. */
  repeats: EvalSideAnswerResponse[];
}

/** One dataset item of a run: its inputs, each side's answers and check results, and the verdict. */
export class EvalRunItemResponse {
  @ApiUuid()
  itemId: string;
  /** The item's place in the dataset at the run's version, from 0. */
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  position: number;
  @ApiAnyJson()
  inputs: unknown;
  @ApiAnyJson()
  expectedOutput: unknown;
  /** `regressed`: the baseline passes and the candidate fails; null until both sides ran. */
  @ApiNullableEnum(VERDICTS)
  verdict: Verdict | null;
  candidate: EvalSideResponse;
  @ApiProperty({ type: () => EvalSideResponse, nullable: true })
  baseline: EvalSideResponse | null;
}

export function toEvalRunResponse(run: EvalRun, summary: EvalRunSummary): EvalRunResponse {
  return {
    id: run.id,
    endpointId: run.endpointId,
    datasetId: run.datasetId,
    datasetVersion: run.datasetVersion,
    status: run.status,
    candidate: { promptId: run.candidatePromptId, versionNumber: run.candidateVersion },
    baseline:
      run.baselinePromptId === null ? null : { promptId: run.baselinePromptId, versionNumber: run.baselineVersion! },
    concurrency: run.concurrency,
    repeats: run.repeats,
    fresh: run.fresh,
    summary: { ...summary },
    errorMessage: run.errorMessage,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
  };
}

export function toEvalRunItemResponse(report: ItemReport): EvalRunItemResponse {
  return {
    itemId: report.itemId,
    position: report.position,
    inputs: report.inputs,
    expectedOutput: report.expectedOutput ?? null,
    verdict: report.verdict,
    candidate: toSide(report.candidate),
    baseline: report.baseline ? toSide(report.baseline) : null,
  };
}

function toSide(side: SideReport): EvalSideResponse {
  return {
    passed: side.passed,
    output: side.output,
    checks: side.checks.map(toCheck),
    errorMessage: side.errorMessage,
    latencyMs: side.latencyMs,
    costUsd: side.costUsd,
    cached: side.cached,
    logId: side.logId,
    repeats: side.repeats.map(toAnswer),
  };
}

function toAnswer(answer: SideAnswer): EvalSideAnswerResponse {
  return {
    repeat: answer.repeat,
    passed: answer.passed,
    output: answer.output,
    checks: answer.checks.map(toCheck),
    errorMessage: answer.errorMessage,
    latencyMs: answer.latencyMs,
    costUsd: answer.costUsd,
    cached: answer.cached,
    logId: answer.logId,
  };
}

function toCheck(check: CheckResult): EvalCheckResultResponse {
  return { type: check.type, pass: check.pass, reason: check.reason };
}
