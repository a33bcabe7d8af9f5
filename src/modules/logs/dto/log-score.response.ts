import { ApiProperty } from '@nestjs/swagger';
import { ApiEnum } from '../../../common/http/api-schema.decorators';
import type { RecordedScore } from '../../scores/execution-scores.service';
import { SCORE_SOURCES, type ScoreSource } from '../../scores/score-types';

/** One score of an execution. */
export class LogScoreResponse {
  /** The score config's name. */
  name: string;
  /** A boolean, a number or a category, as the config's type says. */
  @ApiProperty({ oneOf: [{ type: 'boolean' }, { type: 'number' }, { type: 'string' }] })
  value: boolean | number | string;
  comment: string | null;
  /** Who recorded it: `api` (the execution API), `annotation` (an admin) or `eval` (an evaluation run). */
  @ApiEnum('ScoreSource', SCORE_SOURCES)
  source: ScoreSource;
  /** When the execution's score of this name was first recorded. */
  createdAt: Date;
}

export function toLogScoreResponse(score: RecordedScore): LogScoreResponse {
  return {
    name: score.name,
    value: score.value,
    comment: score.comment,
    source: score.source,
    createdAt: new Date(score.createdAt),
  };
}
