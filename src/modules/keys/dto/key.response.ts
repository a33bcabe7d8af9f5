import { ApiProperty } from '@nestjs/swagger';
import {
  KEY_ENVIRONMENTS,
  KEY_TYPES,
  type KeyEnvironment,
  type KeyType,
  type Permission,
  PERMISSIONS,
} from '../../../common/auth/principal';
import { ApiEnum, ApiNullableEnum, ApiUuid } from '../../../common/http/api-schema.decorators';
import { rateLimitSettingsInForce } from '../../../common/rate-limit/rate-limit-settings';
import { RateLimitsInForceResponse } from '../../../common/rate-limit/rate-limit-settings.dto';
import { type ApiKeyEntity, KEY_STATUSES, type KeyStatus } from '../api-key.entity';

/** A key's record; its rate limits are those in force (its own setting or the default). */
export class KeyResponse extends RateLimitsInForceResponse {
  @ApiUuid()
  id: string;
  name: string;
  @ApiEnum('KeyType', KEY_TYPES)
  type: KeyType;
  /** Endpoint keys: `live` or `test`; null for admin keys. */
  @ApiNullableEnum(KEY_ENVIRONMENTS)
  environment: KeyEnvironment | null;
  /** Admin keys: `ReadWrite` or `ReadOnly`; null for endpoint keys. */
  @ApiNullableEnum(PERMISSIONS)
  permission: Permission | null;
  /** The last four characters of the key; the full value is never shown again. */
  last4: string;
  @ApiEnum('KeyStatus', KEY_STATUSES)
  status: KeyStatus;
  createdAt: Date;
  /** Last authenticated use (kept to within a few seconds); null before the first. */
  lastUsedAt: Date | null;
  /** The endpoints an endpoint key may execute; null for every endpoint of the tenant. */
  @ApiUuid()
  endpointIds: string[] | null;
  /** Tags every execution with this key carries, under the request's own; `{}` when none. */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  defaultTags: Record<string, string>;
}

export class CreatedKeyResponse extends KeyResponse {
  /** The full key. Shown this once: store it now. */
  key: string;
}

export function toKeyResponse(entity: ApiKeyEntity, lastUsedAt: Date | null = entity.lastUsedAt): KeyResponse {
  return {
    id: entity.id,
    name: entity.name,
    type: entity.type,
    environment: entity.environment,
    permission: entity.permission,
    last4: entity.last4,
    status: entity.status,
    createdAt: entity.createdAt,
    lastUsedAt,
    endpointIds: entity.endpointIds,
    defaultTags: entity.defaultTags ?? {},
    ...rateLimitSettingsInForce(entity),
  };
}
