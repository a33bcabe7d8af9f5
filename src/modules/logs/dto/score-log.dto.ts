import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength, ValidateBy } from 'class-validator';
import { SCORE_COMMENT_MAX_LENGTH } from '../../scores/score-value';

/** A score's value: a boolean, a number or a category (whether it fits the score's config is checked when recording). */
const IsScoreValue = () =>
  ValidateBy({
    name: 'isScoreValue',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'boolean' ||
        (typeof value === 'number' && Number.isFinite(value)) ||
        typeof value === 'string',
      defaultMessage: () => 'value must be a boolean, a number or a category',
    },
  });

/** A score on one execution: `POST /admin/v1/logs/{id}/scores` and MCP `score_execution`. */
export class ScoreLogDto {
  /** The name of one of the tenant's score configs. */
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  name: string;

  /** `true` or `false` for a boolean score, a number within the bounds for a numeric one, a category for a categorical one. */
  @ApiProperty({ oneOf: [{ type: 'boolean' }, { type: 'number' }, { type: 'string' }] })
  @IsScoreValue()
  value: boolean | number | string;

  /** Free text, at most 2,000 characters. */
  @IsOptional()
  @IsString()
  @MaxLength(SCORE_COMMENT_MAX_LENGTH)
  comment?: string | null;
}
