import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/app-error';
import { DatasetsService } from '../datasets/datasets.service';
import type { PromotionGateSettings } from '../endpoints/promotion-gate-settings';
import { type GatedVersion, type GateVerdict, PromotionGate } from '../prompts/promotion-gate';
import { EvalRunsRepository } from './eval-runs.repository';
import { gateProblems } from './gate-decision';

/** Completed runs of a version looked at for one that passes the gate. */
const RUNS_CONSIDERED = 20;

/**
 * The promotion gate, from the evaluation runs: the newest completed run of the gate's dataset for the version that
 * passes it; when none does, the reasons the newest one does not (or that there is none).
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
    let datasetVersion: number;
    try {
      datasetVersion = (await this.datasets.findForRun(tenantId, gate.datasetId)).version;
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      return { runId: null, problems: [`The promotion gate's dataset ${gate.datasetId} no longer exists`] };
    }
    const runs = await this.runs.completedRuns(
      tenantId,
      gate.datasetId,
      candidate.promptId,
      candidate.versionNumber,
      RUNS_CONSIDERED,
    );
    if (runs.length === 0) {
      return {
        runId: null,
        problems: [
          `No completed evaluation run of dataset ${gate.datasetId} for version ${candidate.versionNumber} of the prompt`,
        ],
      };
    }
    for (const run of runs) {
      if (gateProblems(run, gate, datasetVersion, currentDefault).length === 0) return { runId: run.id, problems: [] };
    }
    return { runId: runs[0].id, problems: gateProblems(runs[0], gate, datasetVersion, currentDefault) };
  }
}
