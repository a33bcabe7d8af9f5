import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ApiAnyJson, ApiEnum, ApiInteger } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import { Omittable } from '../../../common/http/optional.decorator';
import type { InputDataType, OutputDataType } from '../endpoint-field.entity';
import { INPUT_DATA_TYPES, OUTPUT_DATA_TYPES } from '../endpoint-field.entity';
import { MAX_ENUM_VALUES, MAX_FIELDS_PER_ENDPOINT } from '../field-rules';
import { NESTED_OUTPUT_DATA_TYPES, type NestedOutputDataType } from '../field-types';

/** The longest value an output enum may list. */
export const MAX_ENUM_VALUE_LENGTH = 500;

export const FIELD_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NAME_MESSAGE = 'name must start with a letter or _ and contain only letters, digits and _';

export class CreateInputFieldDto {
  /** Key in the request body; read in templates as `inputs.<name>`. */
  @ApiProperty({ pattern: FIELD_NAME_PATTERN.source })
  @IsString()
  @MaxLength(100)
  @Matches(FIELD_NAME_PATTERN, { message: NAME_MESSAGE })
  name: string;

  @ApiEnum('InputDataType', INPUT_DATA_TYPES)
  @IsIn(INPUT_DATA_TYPES)
  dataType: InputDataType;

  /** Default false. */
  @Omittable()
  @IsBoolean()
  isRequired?: boolean;

  @Omittable()
  @IsString()
  @MaxLength(2000)
  description?: string;

  /** string fields: the longest accepted value, 1..2147483647. */
  @ApiInteger()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER)
  maxLength?: number | null;

  /** integer and number fields: the smallest accepted value. */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a finite number' })
  minimum?: number | null;

  /** integer and number fields: the largest accepted value. */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a finite number' })
  maximum?: number | null;

  /** A JSON value of the field's type, used when the field is absent from a request; null for none. */
  @ApiAnyJson()
  @IsOptional()
  defaultValue?: unknown;
}

export class UpdateInputFieldDto extends PartialType(CreateInputFieldDto, { skipNullProperties: false }) {}

/**
 * What an output value must be besides its type, on a field or on a definition nested in one. A constraint given on a
 * type it does not apply to is refused.
 */
class OutputValueRulesDto {
  /** string fields: the only values the answer may hold, 1 to 100 distinct texts. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ENUM_VALUES)
  @IsString({ each: true })
  @MaxLength(MAX_ENUM_VALUE_LENGTH, { each: true })
  enum?: string[] | null;

  /** integer and number fields: the smallest value the answer may hold. */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a finite number' })
  minimum?: number | null;

  /** integer and number fields: the largest value the answer may hold. */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a finite number' })
  maximum?: number | null;

  /** string fields: the longest text the answer may hold, 1..2147483647. */
  @ApiInteger()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER)
  maxLength?: number | null;

  /**
   * object fields: its properties, each a nested field definition; the answer holds exactly these. Without them any
   * JSON object is taken. Fields nest at most 3 levels.
   */
  @ApiProperty({ type: () => [NestedOutputFieldDto], required: false, nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_FIELDS_PER_ENDPOINT)
  @ValidateNested({ each: true })
  @Type(() => NestedOutputFieldDto)
  properties?: NestedOutputFieldDto[] | null;

  /** array fields: the definition every element follows. Without it any JSON array is taken. */
  @ApiProperty({ type: () => OutputItemDto, required: false, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => OutputItemDto)
  items?: OutputItemDto | null;
}

/** A value inside an output field (the elements of an array field). */
export class OutputItemDto extends OutputValueRulesDto {
  @ApiEnum('NestedOutputDataType', NESTED_OUTPUT_DATA_TYPES)
  @IsIn(NESTED_OUTPUT_DATA_TYPES)
  dataType: NestedOutputDataType;

  @Omittable()
  @IsString()
  @MaxLength(2000)
  description?: string;
}

/** A property of an object output field. */
export class NestedOutputFieldDto extends OutputItemDto {
  /** Key in the object. */
  @ApiProperty({ pattern: FIELD_NAME_PATTERN.source })
  @IsString()
  @MaxLength(100)
  @Matches(FIELD_NAME_PATTERN, { message: NAME_MESSAGE })
  name: string;
}

export class CreateOutputFieldDto extends OutputValueRulesDto {
  /** Key in the answer's JSON object. */
  @ApiProperty({ pattern: FIELD_NAME_PATTERN.source })
  @IsString()
  @MaxLength(100)
  @Matches(FIELD_NAME_PATTERN, { message: NAME_MESSAGE })
  name: string;

  /** An `image` output field makes the endpoint image-generating. */
  @ApiEnum('OutputDataType', OUTPUT_DATA_TYPES)
  @IsIn(OUTPUT_DATA_TYPES)
  dataType: OutputDataType;

  @Omittable()
  @IsString()
  @MaxLength(2000)
  description?: string;

  /** An example; on image fields a JSON object of default generation settings (`size`, `quality`, …). */
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  exampleValue?: string | null;
}

export class UpdateOutputFieldDto extends PartialType(CreateOutputFieldDto, { skipNullProperties: false }) {}
