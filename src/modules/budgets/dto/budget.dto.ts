import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsNumber,
  IsObject,
  IsPositive,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  MinLength,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { ApiEnum } from '../../../common/http/api-schema.decorators';
import { Omittable } from '../../../common/http/optional.decorator';
import { BUDGET_PERIODS, type BudgetPeriod } from '../budget-period';
import { BUDGET_SCOPE_TYPES, type BudgetScopeType } from '../budget-scope';

/** The most a budget's limit may be, in dollars. */
export const MAX_LIMIT_USD = 1_000_000;

/**
 * A number with at most 6 decimals (a millionth of a dollar), whatever its written form: class-validator's
 * maxDecimalPlaces throws for numbers it writes with an exponent (1e-7).
 */
const AtMostSixDecimals = () =>
  ValidateBy({
    name: 'atMostSixDecimals',
    validator: {
      validate: (value: unknown) => typeof value === 'number' && Number(value.toFixed(6)) === value,
      defaultMessage: () => '$property must be a number with at most 6 decimals',
    },
  });

/** What a budget covers: `keyId` for a key, `endpointId` for an endpoint, `tag` (`key:value`) for a tag, none for the tenant. */
export class BudgetScopeDto {
  @ApiEnum('BudgetScopeType', BUDGET_SCOPE_TYPES)
  @IsIn(BUDGET_SCOPE_TYPES)
  type: BudgetScopeType;

  /** The key whose calls it covers (type `key`). */
  @ApiProperty({ format: 'uuid', required: false })
  @Omittable()
  @IsUUID('all')
  keyId?: string;

  /** The endpoint whose calls it covers (type `endpoint`). */
  @ApiProperty({ format: 'uuid', required: false })
  @Omittable()
  @IsUUID('all')
  endpointId?: string;

  /** The tag, `key:value`, whose calls it covers (type `tag`). */
  @ApiProperty({ required: false, example: 'feature:summaries' })
  @Omittable()
  @IsString()
  @MaxLength(200)
  tag?: string;
}

export class CreateBudgetDto {
  /** Free descriptive text. */
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiProperty({ type: BudgetScopeDto })
  @IsObject({ message: 'scope must be an object' })
  @ValidateNested()
  @Type(() => BudgetScopeDto)
  scope: BudgetScopeDto;

  /** A UTC calendar day or month. */
  @ApiEnum('BudgetPeriod', BUDGET_PERIODS)
  @IsIn(BUDGET_PERIODS)
  period: BudgetPeriod;

  /** Dollars per period: more than 0, at most 1,000,000, at most 6 decimals. */
  @ApiProperty({ exclusiveMinimum: true, minimum: 0, maximum: MAX_LIMIT_USD, multipleOf: 0.000001 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @AtMostSixDecimals()
  @IsPositive()
  @Max(MAX_LIMIT_USD)
  limitUsd: number;

  /** A disabled budget refuses nothing (its status is still shown); default true. */
  @Omittable()
  @IsBoolean()
  enabled?: boolean;
}

/** Any subset of the fields. */
export class UpdateBudgetDto extends PartialType(CreateBudgetDto, { skipNullProperties: false }) {}
