import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ApiEnum, ApiInteger, ApiUuid } from '../../../common/http/api-schema.decorators';
import type { StatsInterval } from '../execution-logs.repository';
import type { ScoreVerdict } from '../score-statistics';
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

export const SCORE_VERDICTS: ScoreVerdict[] = ['better', 'worse', 'inconclusive'];

/**
 * A score over the executions of the totals (GET /stats?score=<name>), counted in the hour of the execution scored.
 * Scores recorded by evaluation runs are left out.
 */
export class StatsScoreResponse {
  /** The score config's name. */
  name: string;
  /** How many executions have the score. */
  @ApiInteger({ minimum: 0 })
  count: number;
  /** Boolean scores: the share of true (0 to 1); numeric ones: the mean value; null without scores. Absent for
   * categorical scores. */
  @ApiProperty({ type: Number, nullable: true, required: false })
  mean?: number | null;
  /** Categorical scores only: how many executions have each category (every category of the config). */
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'integer', minimum: 0 } })
  counts?: Record<string, number>;
}

/** A score over one prompt's executions (GET /stats?score=<name>&groupBy=prompt), compared with the other prompts. */
export class StatsGroupScoreResponse extends StatsScoreResponse {
  /**
   * The 95 % confidence interval of `mean`: Wilson's for the share of true of a boolean score, Student's t for the
   * mean of a numeric one; null below one boolean or two numeric scores. Absent for categorical scores.
   */
  @ApiPropertyOptional({ type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2, nullable: true })
  ci95?: [number, number] | null;
  /**
   * Against the best other prompt (among those with at least 30 scores, the highest share of true or mean): `better`
   * when this interval lies wholly above its interval, `worse` when wholly below, `inconclusive` when they overlap,
   * when either has fewer than 30 scores or when no other prompt has 30. Absent for categorical scores.
   */
  @ApiProperty({ enum: SCORE_VERDICTS, enumName: 'ScoreVerdict', required: false })
  verdict?: ScoreVerdict;
}

export class StatsTotalsResponse extends StatsFiguresResponse {
  /** errors / calls; null without calls. */
  @ApiProperty({ minimum: 0, maximum: 1 })
  errorRate: number | null;
  /** cacheHits / calls; null without calls. */
  @ApiProperty({ minimum: 0, maximum: 1 })
  cacheHitRate: number | null;
  /** With `score`: that score over these executions. */
  @ApiProperty({ type: StatsScoreResponse, required: false })
  scores?: StatsScoreResponse;
}

/** A prompt group's totals: with `score`, the score's interval and verdict as well. */
export class StatsGroupTotalsResponse extends StatsTotalsResponse {
  @ApiProperty({ type: StatsGroupScoreResponse, required: false })
  declare scores?: StatsGroupScoreResponse;
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
  totals: StatsGroupTotalsResponse;
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
