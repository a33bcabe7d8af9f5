import { PartialType, PickType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import {
  KEY_ENVIRONMENTS,
  KEY_TYPES,
  type KeyEnvironment,
  type KeyType,
  type Permission,
  PERMISSIONS,
} from '../../../common/auth/principal';
import { ApiEnum, ApiUuid } from '../../../common/http/api-schema.decorators';
import { Omittable } from '../../../common/http/optional.decorator';
import { RATE_LIMIT_SETTINGS } from '../../../common/rate-limit/rate-limit-settings';
import { RateLimitSettingsDto } from '../../../common/rate-limit/rate-limit-settings.dto';
import type { Tags } from '../../../common/tags/tags';
import { TagsProperty } from '../../../common/tags/tags.decorator';

/** A new key; its rate limits are the shared rate-limit settings, null or absent for the defaults. */
export class CreateKeyDto extends RateLimitSettingsDto {
  /** Free descriptive text. */
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  /** `endpoint` keys (ep_live_/ep_test_) execute endpoints; `admin` keys (epa_) also manage them. */
  @ApiEnum('KeyType', KEY_TYPES)
  @IsIn(KEY_TYPES)
  type: KeyType;

  /** Endpoint keys only; default `live`. */
  @ApiEnum('KeyEnvironment', KEY_ENVIRONMENTS)
  @Omittable()
  @IsIn(KEY_ENVIRONMENTS)
  environment?: KeyEnvironment;

  /** Admin keys only; default `ReadWrite`. */
  @ApiEnum('Permission', PERMISSIONS)
  @Omittable()
  @IsIn(PERMISSIONS)
  permission?: Permission;

  /** Restricts an endpoint key to these endpoints; null or absent means every endpoint of the tenant. */
  @ApiUuid()
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  endpointIds?: string[] | null;

  @Omittable()
  @TagsProperty("Tags every execution with this key carries; a request's own tag of the same key wins. Default none")
  defaultTags?: Tags;
}

/** Any subset of the name, the endpoint restriction and the limits; type, environment and permission are fixed. */
export class UpdateKeyDto extends PartialType(PickType(CreateKeyDto, ['name', 'endpointIds', ...RATE_LIMIT_SETTINGS]), {
  skipNullProperties: false,
}) {}
