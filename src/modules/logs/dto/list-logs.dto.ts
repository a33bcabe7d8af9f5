import { IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { ApiEnum } from '../../../common/http/api-schema.decorators';
import { Omittable, OptionalTimestamp } from '../../../common/http/optional.decorator';
import { PageNumber, PageSize } from '../../../common/http/paging';
import { HasTagFilterQuery, ScoreFilterQuery, TagFilterQuery } from './tag-filter.decorators';
import {
  EXECUTION_SOURCES,
  EXECUTION_STATUSES,
  type ExecutionSource,
  type ExecutionStatus,
  PROMPT_ASSIGNMENTS,
  type PromptAssignment,
} from '../new-execution-log';

/** The longest request id a log row holds. */
export const REQUEST_ID_MAX_LENGTH = 128;

/** Log page size, default 20, maximum 50. */
export const LOG_PAGE_SIZE = { default: 20, max: 50 } as const;

/** Query of GET /admin/v1/logs: every filter is optional and they combine with AND. */
export class ListLogsQuery {
  /** Only this endpoint's executions. */
  @Omittable()
  @IsUUID('all')
  endpointId?: string;

  /** `Api`, `TestPage`, `Internal` or `Eval` (evaluation runs). */
  @ApiEnum('ExecutionSource', EXECUTION_SOURCES)
  @Omittable()
  @IsIn(EXECUTION_SOURCES)
  source?: ExecutionSource;

  /** `success` or `error`. */
  @ApiEnum('ExecutionStatus', EXECUTION_STATUSES)
  @Omittable()
  @IsIn(EXECUTION_STATUSES)
  status?: ExecutionStatus;

  /** Only executions of this prompt. */
  @Omittable()
  @IsUUID('all')
  promptId?: string;

  /** Only executions whose prompt was assigned this way: `default`, `pinned` or `split`. */
  @ApiEnum('PromptAssignment', PROMPT_ASSIGNMENTS)
  @Omittable()
  @IsIn(PROMPT_ASSIGNMENTS)
  assignment?: PromptAssignment;

  /** Only the execution answered with this `X-Request-Id`. */
  @Omittable()
  @IsString()
  @MaxLength(REQUEST_ID_MAX_LENGTH)
  requestId?: string;

  @TagFilterQuery()
  tag?: string[];

  @HasTagFilterQuery()
  hasTag?: string[];

  @ScoreFilterQuery()
  score?: string[];

  /** ISO 8601 timestamp; executions at or after it. */
  @OptionalTimestamp()
  from?: string;

  /** ISO 8601 timestamp; executions before it. */
  @OptionalTimestamp()
  to?: string;

  /** Page number, from 1. Default 1. */
  @PageNumber()
  page?: number;

  /** Rows per page, 1..50. Default 20. */
  @PageSize(LOG_PAGE_SIZE)
  pageSize?: number;
}
