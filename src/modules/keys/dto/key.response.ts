import type { KeyEnvironment, KeyType, Permission } from '../../../common/auth/principal';
import type { ApiKeyEntity, KeyStatus } from '../api-key.entity';

export const DEFAULT_RATE_LIMITS = { perMinute: 60, perHour: 1000, perDay: 10000 } as const;

export class KeyResponse {
  id: string;
  name: string;
  type: KeyType;
  environment: KeyEnvironment | null;
  permission: Permission | null;
  /** The last four characters of the key; the full value is never shown again. */
  last4: string;
  status: KeyStatus;
  createdAt: Date;
  lastUsedAt: Date | null;
  endpointIds: string[] | null;
  /** The limits in force (the key's override or the default). */
  rateLimitPerMinute: number;
  rateLimitPerHour: number;
  rateLimitPerDay: number;
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
    rateLimitPerMinute: entity.rateLimitPerMinute ?? DEFAULT_RATE_LIMITS.perMinute,
    rateLimitPerHour: entity.rateLimitPerHour ?? DEFAULT_RATE_LIMITS.perHour,
    rateLimitPerDay: entity.rateLimitPerDay ?? DEFAULT_RATE_LIMITS.perDay,
  };
}
