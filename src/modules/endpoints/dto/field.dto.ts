import { ApiProperty, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ApiAnyJson, ApiEnum, ApiInteger } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import { Omittable } from '../../../common/http/optional.decorator';
import type { InputDataType, OutputDataType } from '../endpoint-field.entity';
import { INPUT_DATA_TYPES, OUTPUT_DATA_TYPES } from '../endpoint-field.entity';

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

export class CreateOutputFieldDto {
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
