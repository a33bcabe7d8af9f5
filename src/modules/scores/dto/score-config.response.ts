import { ApiEnum, ApiUuid } from '../../../common/http/api-schema.decorators';
import type { ScoreConfigEntity } from '../score-config.entity';
import { SCORE_DATA_TYPES, type ScoreDataType } from '../score-types';

export class ScoreConfigResponse {
  @ApiUuid()
  id: string;
  name: string;
  @ApiEnum('ScoreDataType', SCORE_DATA_TYPES)
  dataType: ScoreDataType;
  /** Numeric scores: the smallest value; null otherwise. */
  minimum: number | null;
  /** Numeric scores: the largest value; null otherwise. */
  maximum: number | null;
  /** Categorical scores: the allowed values; null otherwise. */
  categories: string[] | null;
  description: string;
  createdAt: Date;
  updatedAt: Date;
}

export function toScoreConfigResponse(config: ScoreConfigEntity): ScoreConfigResponse {
  return {
    id: config.id,
    name: config.name,
    dataType: config.dataType,
    minimum: config.minimum,
    maximum: config.maximum,
    categories: config.categories,
    description: config.description,
    createdAt: config.createdAt,
    updatedAt: config.updatedAt,
  };
}
