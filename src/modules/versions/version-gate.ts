/**
 * How a promotion passed the endpoint's promotion gate: by the evaluation run `runId` (`forced` false), or forced
 * past it with a `reason` (`runId` the newest run of the version considered, null when there was none).
 */
export interface VersionGate {
  forced: boolean;
  reason?: string;
  runId: string | null;
}
