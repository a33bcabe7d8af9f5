import { PartialType, PickType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';
import { KEY_ENVIRONMENTS, KEY_TYPES, type KeyEnvironment, type KeyType, type Permission, PERMISSIONS } from '../../../common/auth/principal';
import { ApiEnum, ApiInteger, ApiUuid } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import { Omittable } from '../../../common/http/optional.decorator';

export class CreateKeyDto {
  /** Free descriptive text. */
  @IsString() @MinLength(1) @MaxLength(200)
  name: string;

  /** `endpoint` keys (ep_live_/ep_test_) execute endpoints; `admin` keys (epa_) also manage them. */
  @ApiEnum('KeyType', KEY_TYPES)
  @IsIn(KEY_TYPES)
  type: KeyType;

  /** Endpoint keys only; default `live`. */
  @ApiEnum('KeyEnvironment', KEY_ENVIRONMENTS)
  @Omittable() @IsIn(KEY_ENVIRONMENTS)
  environment?: KeyEnvironment;

  /** Admin keys only; default `ReadWrite`. */
  @ApiEnum('Permission', PERMISSIONS)
  @Omittable() @IsIn(PERMISSIONS)
  permission?: Permission;

  /** Restricts an endpoint key to these endpoints; null or absent means every endpoint of the tenant. */
  @ApiUuid()
  @IsOptional() @IsArray() @ArrayMaxSize(1000) @IsUUID('all', { each: true })
  endpointIds?: string[] | null;

  /** Per-key override of the default 60 requests per minute, 1..2147483647; null restores the default. */
  @ApiInteger()
  @IsOptional() @IsInt() @Min(1) @Max(MAX_INTEGER)
  rateLimitPerMinute?: number | null;

  /** Per-key override of the default 1,000 requests per hour, 1..2147483647; null restores the default. */
  @ApiInteger()
  @IsOptional() @IsInt() @Min(1) @Max(MAX_INTEGER)
  rateLimitPerHour?: number | null;

  /** Per-key override of the default 10,000 requests per day, 1..2147483647; null restores the default. */
  @ApiInteger()
  @IsOptional() @IsInt() @Min(1) @Max(MAX_INTEGER)
  rateLimitPerDay?: number | null;
}

/** Any subset of the name, the endpoint restriction and the limits; type, environment and permission are fixed. */
export class UpdateKeyDto extends PartialType(
  PickType(CreateKeyDto, ['name', 'endpointIds', 'rateLimitPerMinute', 'rateLimitPerHour', 'rateLimitPerDay'] as const),
  { skipNullProperties: false },
) {}
