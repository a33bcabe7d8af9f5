/**
 * An endpoint's promotion gate: a prompt of it is promoted only with a completed run of dataset `datasetId` (at its
 * current version, for the prompt's current version, against the endpoint's current default) that passes at least
 * `minPassRate` of the items with at most `maxRegressions` regressions.
 */
export interface PromotionGateSettings {
  datasetId: string;
  /** 0–1. */
  minPassRate: number;
  maxRegressions: number;
}

export const GATE_DEFAULTS = { minPassRate: 1, maxRegressions: 0 };

/** The gate as given (its omitted thresholds at their defaults), or null for none. */
export function promotionGateOf(
  value: { datasetId: string; minPassRate?: number; maxRegressions?: number } | null,
): PromotionGateSettings | null {
  if (value === null) return null;
  return {
    datasetId: value.datasetId,
    minPassRate: value.minPassRate ?? GATE_DEFAULTS.minPassRate,
    maxRegressions: value.maxRegressions ?? GATE_DEFAULTS.maxRegressions,
  };
}
