import type { PromotionGateSettings } from '../endpoints/promotion-gate-settings';
import type { EvalRun, PromptVersionRef } from './eval-run';

/**
 * Why `run` does not pass the gate (empty when it does): it must have read the dataset at its current version, have
 * compared with the endpoint's current default version (none when the endpoint has no default), and meet both
 * thresholds.
 */
export function gateProblems(
  run: EvalRun,
  gate: PromotionGateSettings,
  datasetVersion: number,
  currentDefault: PromptVersionRef | null,
): string[] {
  const problems: string[] = [];
  if (run.datasetVersion !== datasetVersion) {
    problems.push(`The run used dataset version ${run.datasetVersion} and it is now ${datasetVersion}`);
  }
  const baseline = run.baselinePromptId ? { promptId: run.baselinePromptId, versionNumber: run.baselineVersion } : null;
  const sameBaseline =
    baseline === null
      ? currentDefault === null
      : currentDefault !== null &&
        baseline.promptId === currentDefault.promptId &&
        baseline.versionNumber === currentDefault.versionNumber;
  if (!sameBaseline) {
    problems.push(
      `The endpoint's default changed since the run: it compared with ${describe(baseline)}, the default is now ${describe(currentDefault)}`,
    );
  }
  const summary = run.summary;
  if (summary && summary.passRate < gate.minPassRate) {
    problems.push(`Pass rate ${summary.passRate} below ${gate.minPassRate}`);
  }
  if (summary && summary.regressions > gate.maxRegressions) {
    problems.push(
      `${summary.regressions} regression${summary.regressions === 1 ? '' : 's'} (at most ${gate.maxRegressions} allowed)`,
    );
  }
  return problems;
}

function describe(version: { promptId: string; versionNumber: number | null } | null): string {
  return version ? `prompt ${version.promptId} version ${version.versionNumber}` : 'no default';
}
