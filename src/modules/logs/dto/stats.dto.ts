import { IsIn, IsISO8601, IsUUID } from 'class-validator';
import { Omittable } from '../../../common/http/optional.decorator';
import type { StatsInterval } from '../execution-logs.repository';

/** Query of GET /admin/v1/stats. */
export class StatsQuery {
  /** One endpoint; all of the tenant's endpoints when absent. */
  @Omittable() @IsUUID('all')
  endpointId?: string;

  /** ISO 8601 timestamp, inclusive. Default: 7 days (interval=day) or 24 hours (interval=hour) before `to`. */
  @Omittable() @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 timestamp' })
  from?: string;

  /** ISO 8601 timestamp, exclusive. Default now. */
  @Omittable() @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 timestamp' })
  to?: string;

  /** Bucket size of the time series, in UTC: `hour` or `day` (default). */
  @Omittable() @IsIn(['hour', 'day'])
  interval?: StatsInterval;
}
