import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/app-error';
import { DatasetsService } from '../datasets/datasets.service';
import type { PromotionGateSettings } from '../endpoints/promotion-gate-settings';
import { type GatedVersion, type GateVerdict, PromotionGate } from '../prompts/promotion-gate';
import { EvalRunsRepository } from './eval-runs.repository';
import type { EvalRun } from './eval-run';
import { type GateRun, gateDecision } from './run-rules/promotion-gate';

/** Completed runs of a version looked at for one that passes the gate. */
const RUNS_CONSIDERED = 20;

/**
 * The promotion gate, from the evaluation runs: the newest completed run of the gate's dataset for the version that
 * opens it (see gateDecision); when none does, the reasons the newest one does not (or that there is none).
 */
@Injectable()
export class EvalPromotionGateService extends PromotionGate {
  constructor(
    private readonly runs: EvalRunsRepository,
    private readonly datasets: DatasetsService,
  ) {
    super();
  }

  async check(
    tenantId: string,
    gate: PromotionGateSettings,
    candidate: GatedVersion,
    currentDefault: GatedVersion | null,
  ): Promise<GateVerdict> {
    let dataset: { name: string; version: number };
    try {
      dataset = await this.datasets.findForRun(tenantId, gate.datasetId);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      return { runId: null, problems: [`The promotion gate's dataset ${gate.datasetId} no longer exists.`] };
    }
    const decide = (run: EvalRun | null) =>
      gateDecision({
        gate,
        datasetName: dataset.name,
        datasetVersion: dataset.version,
        promptId: candidate.promptId,
        promptVersion: candidate.versionNumber,
        defaultPrompt: currentDefault,
        run: run && gateRunOf(run),
      });
    const runs = await this.runs.completedRuns(
      tenantId,
      gate.datasetId,
      candidate.promptId,
      candidate.versionNumber,
      RUNS_CONSIDERED,
    );
    for (const run of runs) {
      const decision = decide(run);
      if (decision.open) return { runId: decision.runId, problems: [] };
    }
    const newest = runs[0] ?? null;
    const decision = decide(newest);
    return { runId: newest?.id ?? null, problems: decision.open ? [] : decision.reasons };
  }
}

/** A completed run as the gate's decision reads it. */
function gateRunOf(run: EvalRun): GateRun {
  return {
    id: run.id,
    datasetVersion: run.datasetVersion,
    candidate: { promptId: run.candidatePromptId, versionNumber: run.candidateVersion },
    baseline:
      run.baselinePromptId === null ? null : { promptId: run.baselinePromptId, versionNumber: run.baselineVersion! },
    summary: { passRate: run.summary?.passRate ?? 0, regressions: run.summary?.regressions ?? 0 },
  };
}
