import type { Tags } from '../tags/tags';

export type KeyType = 'endpoint' | 'admin';
export type Permission = 'ReadWrite' | 'ReadOnly';
export type KeyEnvironment = 'live' | 'test';
export const KEY_TYPES: KeyType[] = ['endpoint', 'admin'];
export const PERMISSIONS: Permission[] = ['ReadWrite', 'ReadOnly'];
export const KEY_ENVIRONMENTS: KeyEnvironment[] = ['live', 'test'];

export interface RateLimits {
  perMinute: number;
  perHour: number;
  perDay: number;
}

/** Who is calling: the authenticated API key and its tenant. Every service call is scoped by `tenantId`. */
export interface Principal {
  keyId: string;
  tenantId: string;
  tenantSlug: string;
  type: KeyType;
  permission: Permission | null;
  environment: KeyEnvironment | null;
  /** Endpoint keys restricted to these endpoints; null means all. */
  endpointIds: string[] | null;
  rateLimits: RateLimits;
  /** Tags every execution with the key carries, under the request's own (`{}` when none). */
  defaultTags: Tags;
}

/** The port the keys module implements; guards depend on it, never on the module. */
export abstract class ApiKeyAuthenticator {
  /** The principal of an active key, or null for an unknown or revoked one. */
  abstract authenticate(rawKey: string): Promise<Principal | null>;

  /** The principal of an active key this instance holds in memory (used recently), without any lookup; else null. */
  abstract knownPrincipal(rawKey: string): Principal | null;
}
