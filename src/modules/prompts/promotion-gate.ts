import type { PromotionGateSettings } from '../endpoints/promotion-gate-settings';

/** A prompt version, as the promotion gate is asked about it. */
export interface GatedVersion {
  promptId: string;
  versionNumber: number;
}

/** What the gate found: the run that passes it, or why none does (problems), with the newest run it looked at. */
export interface GateVerdict {
  runId: string | null;
  /** Empty when the gate is passed. */
  problems: string[];
}

/**
 * The port through which a promotion asks whether the endpoint's promotion gate is passed: the evaluations module
 * provides it (evaluations build on execution, which builds on prompts, so prompts cannot import them).
 */
export abstract class PromotionGate {
  /**
   * Whether `candidate` may be promoted under `gate`: a completed run of the gate's dataset, at the dataset's current
   * version, for the candidate version, whose baseline was `currentDefault` (null: the endpoint has no default), meeting
   * both thresholds. Runs inside the promotion's transaction.
   */
  abstract check(
    tenantId: string,
    gate: PromotionGateSettings,
    candidate: GatedVersion,
    currentDefault: GatedVersion | null,
  ): Promise<GateVerdict>;
}
