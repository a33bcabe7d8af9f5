import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsUUID, Matches } from 'class-validator';
import { TAG_KEY_PATTERN } from '../../../common/tags/tags';
import { ApiEnum } from '../../../common/http/api-schema.decorators';
import { Omittable, OptionalTimestamp } from '../../../common/http/optional.decorator';
import { SCORE_NAME_PATTERN } from '../../scores/score-config-rules';
import { HasTagFilterQuery, TagFilterQuery } from './tag-filter.decorators';
import type { StatsInterval } from '../execution-logs.repository';

/**
 * The sources the statistics read alone on request: evaluation runs' executions (otherwise left out), or the calls made
 * through the execution API (without the test runner's and MCP's).
 */
export type StatsSource = 'Eval' | 'Api';
export const STATS_SOURCES: StatsSource[] = ['Eval', 'Api'];
export const STATS_INTERVALS: StatsInterval[] = ['hour', 'day'];
/** `prompt`, or `tag:<key>`. */
export type StatsGroupBy = 'prompt' | `tag:${string}`;
const GROUP_BY_PATTERN = new RegExp(`^(prompt|tag:${TAG_KEY_PATTERN.source.slice(1, -1)})$`);

/** Query of GET /admin/v1/stats. */
export class StatsQuery {
  /** One endpoint; all of the tenant's endpoints when absent. */
  @Omittable()
  @IsUUID('all')
  endpointId?: string;

  /** ISO 8601 timestamp, inclusive. Default: 7 days (interval=day) or 24 hours (interval=hour) before `to`. */
  @OptionalTimestamp()
  from?: string;

  /** ISO 8601 timestamp, exclusive. Default now. */
  @OptionalTimestamp()
  to?: string;

  /** Bucket size of the time series, in UTC: `hour` or `day` (default). */
  @ApiEnum('StatsInterval', STATS_INTERVALS)
  @Omittable()
  @IsIn(STATS_INTERVALS)
  interval?: StatsInterval;

  /**
   * `prompt` adds `groups`: the totals of each prompt that ran in the period (a traffic split's variants side by side).
   * `tag:<key>` adds `groups` by the value of that tag: the 100 most frequent values (by calls), then one group (value
   * null) for the other values and the executions without the tag.
   */
  @ApiProperty({ type: String, required: false, pattern: GROUP_BY_PATTERN.source })
  @Omittable()
  @Matches(GROUP_BY_PATTERN, { message: 'groupBy must be prompt or tag:<key>' })
  groupBy?: StatsGroupBy;

  /** `Eval`: evaluation runs' executions alone (left out otherwise); `Api`: calls through the execution API alone. */
  @ApiEnum('StatsSource', STATS_SOURCES)
  @Omittable()
  @IsIn(STATS_SOURCES)
  source?: StatsSource;

  @TagFilterQuery()
  tag?: string[];

  @HasTagFilterQuery()
  hasTag?: string[];

  /**
   * A score config's name: adds `scores` to the totals and to each group's totals (its count, and the share of true,
   * the mean or the count per category), counted in the hour of the execution scored. With groupBy=prompt, each
   * prompt's also has its 95 % interval (`ci95`) and `verdict` against the best other prompt.
   */
  @ApiProperty({ type: String, required: false, pattern: SCORE_NAME_PATTERN.source })
  @Omittable()
  @Matches(SCORE_NAME_PATTERN, { message: 'score must be the name of a score config' })
  score?: string;
}
