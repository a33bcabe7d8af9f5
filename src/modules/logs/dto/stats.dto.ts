import { IsIn, IsUUID } from 'class-validator';
import { ApiEnum } from '../../../common/http/api-schema.decorators';
import { Omittable, OptionalTimestamp } from '../../../common/http/optional.decorator';
import type { StatsInterval } from '../execution-logs.repository';

export const STATS_INTERVALS: StatsInterval[] = ['hour', 'day'];
export type StatsGroupBy = 'prompt';
export const STATS_GROUP_BYS: StatsGroupBy[] = ['prompt'];

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

  /** `prompt` adds `groups`: the totals of each prompt that ran in the period (a traffic split's variants side by side). */
  @ApiEnum('StatsGroupBy', STATS_GROUP_BYS)
  @Omittable()
  @IsIn(STATS_GROUP_BYS)
  groupBy?: StatsGroupBy;
}
