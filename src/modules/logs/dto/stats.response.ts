/** p50 and p95 of latencyMs (percentile_cont over every call, cache hits included); null without calls. */
export class LatencyPercentilesResponse {
  p50: number | null;
  p95: number | null;
}

export class StatsFiguresResponse {
  calls: number;
  errors: number;
  /** Errors per errorCode (`timeout`, `upstream_error`, `validation_error`, …). */
  errorsByCode: Record<string, number>;
  cacheHits: number;
  latencyMs: LatencyPercentilesResponse;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export class StatsTotalsResponse extends StatsFiguresResponse {
  /** errors / calls; null without calls. */
  errorRate: number | null;
  /** cacheHits / calls; null without calls. */
  cacheHitRate: number | null;
}

export class StatsBucketResponse extends StatsFiguresResponse {
  /** Start of the UTC hour or day. */
  start: Date;
}

/** GET /stats: totals over [from, to) and one bucket per hour or day, empty buckets included. */
export class StatsResponse {
  endpointId: string | null;
  from: Date;
  to: Date;
  interval: string;
  totals: StatsTotalsResponse;
  series: StatsBucketResponse[];
}
