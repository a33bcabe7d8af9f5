import type { Principal } from '../../common/auth/principal';
import type { Endpoint } from './endpoint-definition';

/**
 * Whether a key may call an endpoint: the one rule for executions and for the endpoints a key's OpenAPI document lists.
 * Admin keys call every endpoint; endpoint keys call Public ones only, and only those of their `endpointIds` when the
 * key has them. Answers why the key may not call it, or null when it may.
 */
export function endpointAccessRefusal(
  principal: Pick<Principal, 'type' | 'endpointIds'>,
  endpoint: Pick<Endpoint, 'id' | 'visibility'>,
): string | null {
  if (principal.type !== 'endpoint') return null;
  if (endpoint.visibility === 'Private') return 'This endpoint is private: only admin keys may call it';
  if (principal.endpointIds && !principal.endpointIds.includes(endpoint.id)) {
    return 'This key has no access to this endpoint';
  }
  return null;
}
