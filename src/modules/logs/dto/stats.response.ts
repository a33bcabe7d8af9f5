import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ApiEnum, ApiInteger, ApiUuid } from '../../../common/http/api-schema.decorators';
import type { StatsInterval } from '../execution-logs.repository';
import { STATS_INTERVALS } from './stats.dto';

/** p50 and p95 of latencyMs (percentile_cont over every call, cache hits included); null without calls. */
export class LatencyPercentilesResponse {
  @ApiProperty({ minimum: 0 })
  p50: number | null;
  @ApiProperty({ minimum: 0 })
  p95: number | null;
}

export class StatsFiguresResponse {
  @ApiInteger({ minimum: 0 })
  calls: number;
  @ApiInteger({ minimum: 0 })
  errors: number;
  /** Errors per errorCode (`timeout`, `upstream_error`, `validation_error`, …). */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer', minimum: 1 } })
  errorsByCode: Record<string, number>;
  @ApiInteger({ minimum: 0 })
  cacheHits: number;
  latencyMs: LatencyPercentilesResponse;
  @ApiInteger({ minimum: 0 })
  inputTokens: number;
  @ApiInteger({ minimum: 0 })
  outputTokens: number;
  /** USD, summed over the calls whose price is known. */
  @ApiProperty({ minimum: 0 })
  costUsd: number;
}

export class StatsTotalsResponse extends StatsFiguresResponse {
  /** errors / calls; null without calls. */
  @ApiProperty({ minimum: 0, maximum: 1 })
  errorRate: number | null;
  /** cacheHits / calls; null without calls. */
  @ApiProperty({ minimum: 0, maximum: 1 })
  cacheHitRate: number | null;
}

export class StatsBucketResponse extends StatsFiguresResponse {
  /** Start of the UTC hour or day. */
  start: Date;
}

/** The totals of one prompt's executions over the period (GET /stats?groupBy=prompt). */
export class StatsGroupResponse {
  @ApiUuid()
  promptId: string;
  /** The prompt's current name; null if it is no longer known. */
  promptName: string | null;
  totals: StatsTotalsResponse;
}

export class StatsTagResponse {
  key: string;
  /** The tag's value; null for the group of the other values and the executions without the tag. */
  value: string | null;
}

/** The totals of one value of a tag key over the period (GET /stats?groupBy=tag:<key>). */
export class StatsTagGroupResponse {
  tag: StatsTagResponse;
  totals: StatsTotalsResponse;
}

/** GET /stats: totals over [from, to) and one bucket per hour or day, empty buckets included. */
@ApiExtraModels(StatsGroupResponse, StatsTagGroupResponse)
export class StatsResponse {
  /** The endpoint asked for; null for all of the tenant's endpoints. */
  @ApiUuid()
  endpointId: string | null;
  /** Start of the period, inclusive. */
  from: Date;
  /** End of the period, exclusive. */
  to: Date;
  @ApiEnum('StatsInterval', STATS_INTERVALS)
  interval: StatsInterval;
  totals: StatsTotalsResponse;
  series: StatsBucketResponse[];
  /**
   * With groupBy=prompt: one entry per prompt that ran in the period, most calls first. With groupBy=tag:<key>: one
   * entry per value of the tag among the 100 most frequent (most calls first), then one (value null) for the other
   * values and the executions without the tag.
   */
  @ApiProperty({
    type: 'array',
    required: false,
    items: { oneOf: [{ $ref: getSchemaPath(StatsGroupResponse) }, { $ref: getSchemaPath(StatsTagGroupResponse) }] },
  })
  groups?: StatsGroupResponse[] | StatsTagGroupResponse[];
}
