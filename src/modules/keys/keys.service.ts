import { Injectable, OnModuleInit } from '@nestjs/common';
import type { KeyEnvironment, KeyType, Permission, Principal } from '../../common/auth/principal';
import { ApiKeyAuthenticator } from '../../common/auth/principal';
import type { Tags } from '../../common/tags/tags';
import { ValidationError } from '../../common/errors/app-error';
import { AppLogger } from '../../common/logging/app-logger';
import { type Page, pageOf, type PageRequest, pageWindow } from '../../common/http/paging';
import { DatabaseShutdown } from '../../database/database-shutdown';
import { EndpointsService } from '../endpoints/endpoints.service';
import { InvalidatingCache, InvalidationBus } from '../invalidation/invalidation-bus';
import { KEY_CREATED_TOPIC, KEY_TOPIC } from '../invalidation/topics';
import { LRUCache } from 'lru-cache';
import { TenantsService } from '../tenants/tenants.service';
import { ApiKeyEntity } from './api-key.entity';
import { CreatedKeyResponse, KeyResponse, toKeyResponse } from './dto/key.response';
import type { SessionResponse } from './dto/session.response';
import { generateKey, hashesEqual, hashKey, isWellFormedKey, last4 } from './key-format';
import { ApiKeyChanges, KeysRepository } from './keys.repository';
import {
  type RateLimitSettings,
  rateLimitSettingsOf,
  rateLimitsInForce,
} from '../../common/rate-limit/rate-limit-settings';
import { isDatabaseUnavailable } from '../../common/errors/database-unavailable';
import { KeyErrors } from './keys.errors';

const LAST_USED_FLUSH_MS = 5_000;
/**
 * Last-use times kept for the next flush at most (one per key): a batch the database refused is kept for the next
 * flush within this bound, and beyond it the oldest keys' times are dropped.
 */
const MAX_PENDING_LAST_USED = 10_000;
/** Authenticated keys kept in memory; a change or revocation drops them on every instance through the bus. */
const PRINCIPAL_CACHE = { max: 10_000, ttlMs: 60_000 };
/**
 * Hashes of presented keys that matched no active key, kept so that a repeat costs no query. Forgotten on every
 * instance when a key is created or changed (through the bus, as principals are), and after a minute in any case.
 */
const UNKNOWN_KEY_CACHE = { max: 10_000, ttl: 60_000 };

export interface NewKey extends Partial<RateLimitSettings> {
  name: string;
  type: KeyType;
  environment?: KeyEnvironment;
  permission?: Permission;
  endpointIds?: string[] | null;
  defaultTags?: Tags;
}

@Injectable()
export class KeysService extends ApiKeyAuthenticator implements OnModuleInit {
  /** lastUsedAt is coalesced in memory and written in one batch every few seconds, not on every request. */
  private readonly pendingLastUsed = new Map<string, Date>();
  private flushTimer?: NodeJS.Timeout;
  /** Principals by key hash: authentication costs no database query while a key is in use. */
  private readonly principals: InvalidatingCache<Principal>;
  private readonly unknownKeys = new LRUCache<string, true>(UNKNOWN_KEY_CACHE);
  /** Counts key creations and changes: a lookup that raced one does not remember its key as unknown. */
  private keyChanges = 0;

  constructor(
    private readonly keys: KeysRepository,
    private readonly tenants: TenantsService,
    private readonly endpoints: EndpointsService,
    private readonly bus: InvalidationBus,
    shutdown: DatabaseShutdown,
    private readonly logger: AppLogger,
  ) {
    super();
    this.principals = new InvalidatingCache<Principal>(bus, KEY_TOPIC, (principal) => principal.keyId, PRINCIPAL_CACHE);
    const forgetUnknownKeys = () => {
      this.keyChanges++;
      this.unknownKeys.clear();
    };
    bus.subscribe(KEY_CREATED_TOPIC, forgetUnknownKeys);
    bus.subscribe(KEY_TOPIC, forgetUnknownKeys);
    // Last-use times of the final requests too: written once the HTTP server has closed, before the database closes.
    shutdown.beforeClose(async () => {
      clearInterval(this.flushTimer);
      await this.flushLastUsed();
    });
  }

  onModuleInit(): void {
    this.flushTimer = setInterval(() => void this.flushLastUsed(), LAST_USED_FLUSH_MS);
    this.flushTimer.unref();
  }

  async create(tenantId: string, input: NewKey): Promise<CreatedKeyResponse> {
    const { raw, entity } = await this.insert(tenantId, input, generateKey(input.type, this.environmentOf(input)));
    return { ...toKeyResponse(entity), key: raw };
  }

  /** INITIAL_ADMIN_KEY: a ReadWrite admin key with a value chosen by the operator, created once. */
  async ensureAdminKey(tenantId: string, raw: string, name: string): Promise<boolean> {
    if (await this.keys.findByHash(hashKey(raw))) return false;
    await this.insert(tenantId, { name, type: 'admin', permission: 'ReadWrite' }, raw);
    return true;
  }

  /** A page of the tenant's keys, oldest first. */
  async list(tenantId: string, request: PageRequest = {}): Promise<Page<KeyResponse>> {
    const window = pageWindow(request);
    const page = pageOf(await this.keys.listPage(tenantId, window.offset, window.limit), window);
    return {
      ...page,
      items: page.items.map((key) => toKeyResponse(key, this.pendingLastUsed.get(key.id) ?? key.lastUsedAt)),
    };
  }

  async get(tenantId: string, id: string): Promise<KeyResponse> {
    const key = await this.find(tenantId, id);
    return toKeyResponse(key, this.pendingLastUsed.get(key.id) ?? key.lastUsedAt);
  }

  /** The names of the tenant's keys among `ids` (revoked ones included), by id; unknown ids are absent. */
  async namesOf(tenantId: string, ids: string[]): Promise<Map<string, string>> {
    const keys = await this.keys.namesByIds(tenantId, [...new Set(ids)]);
    return new Map(keys.map((key) => [key.id, key.name]));
  }

  /** The calling key and its tenant. */
  async session(tenantId: string, keyId: string): Promise<SessionResponse> {
    const [tenant, key] = await Promise.all([this.tenants.getById(tenantId), this.get(tenantId, keyId)]);
    return { tenant: { slug: tenant.slug, name: tenant.name, plan: tenant.plan }, key };
  }

  async update(tenantId: string, id: string, changes: ApiKeyChanges): Promise<KeyResponse> {
    const key = await this.find(tenantId, id);
    if (changes.endpointIds !== undefined) await this.checkEndpointIds(tenantId, key.type, changes.endpointIds);
    await this.keys.update(tenantId, id, changes);
    await this.bus.publish(KEY_TOPIC, id);
    return this.get(tenantId, id);
  }

  /**
   * Revocation takes effect on the next request, on every instance: the bus drops the cached
   * principal here before this returns, and on the other instances within a second.
   */
  async revoke(tenantId: string, id: string): Promise<KeyResponse> {
    await this.find(tenantId, id);
    await this.keys.revoke(tenantId, id);
    await this.bus.publish(KEY_TOPIC, id);
    return this.get(tenantId, id);
  }

  async authenticate(raw: string): Promise<Principal | null> {
    if (!isWellFormedKey(raw)) return null;
    const hash = hashKey(raw);
    if (this.unknownKeys.has(hash)) return null;
    const changesBefore = this.keyChanges;
    const principal = await this.principals.getOrLoad(hash, () => this.loadPrincipal(hash));
    if (principal) this.pendingLastUsed.set(principal.keyId, new Date());
    else if (this.keyChanges === changesBefore) this.unknownKeys.set(hash, true);
    return principal;
  }

  knownPrincipal(raw: string): Principal | null {
    if (!isWellFormedKey(raw)) return null;
    const principal = this.principals.peek(hashKey(raw)) ?? null;
    if (principal) this.pendingLastUsed.set(principal.keyId, new Date());
    return principal;
  }

  private async loadPrincipal(hash: string): Promise<Principal | null> {
    const key = await this.keys.findByHash(hash);
    if (!key || key.status !== 'Active' || !hashesEqual(key.keyHash, hash)) return null;
    return {
      keyId: key.id,
      tenantId: key.tenantId,
      tenantSlug: await this.tenants.slugOf(key.tenantId),
      type: key.type,
      permission: key.permission,
      environment: key.environment,
      endpointIds: key.endpointIds,
      rateLimits: rateLimitsInForce(key),
      defaultTags: key.defaultTags ?? {},
    };
  }

  /**
   * Writes the pending last-use times in one batch. A batch the database refuses is kept for the next flush (a key
   * used since keeps its newer time) and a warning is logged; it never throws.
   */
  async flushLastUsed(): Promise<void> {
    if (this.pendingLastUsed.size === 0) return;
    const batch = new Map(this.pendingLastUsed);
    this.pendingLastUsed.clear();
    try {
      await this.keys.touchLastUsed(batch);
    } catch (error) {
      const dropped = this.keepForNextFlush(batch);
      // A database outage has its own throttled warning; a refusal of another kind, or lost times, are said here.
      if (isDatabaseUnavailable(error) && dropped === 0) return;
      const lost = dropped > 0 ? `; ${dropped} dropped beyond ${MAX_PENDING_LAST_USED} pending` : '';
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.write(
        'warn',
        `Last-use times of ${batch.size} keys not written, kept for the next flush${lost}: ${reason}`,
        {
          context: 'Keys',
        },
      );
    }
  }

  /** Puts a refused batch back under the times recorded since; returns how many did not fit MAX_PENDING_LAST_USED. */
  private keepForNextFlush(batch: Map<string, Date>): number {
    const newer = new Map(this.pendingLastUsed);
    this.pendingLastUsed.clear();
    for (const [id, at] of batch) if (!newer.has(id)) this.pendingLastUsed.set(id, at);
    for (const [id, at] of newer) this.pendingLastUsed.set(id, at);
    let dropped = 0;
    // Oldest first in insertion order: the batch's keys, then those used since.
    for (const id of this.pendingLastUsed.keys()) {
      if (this.pendingLastUsed.size <= MAX_PENDING_LAST_USED) break;
      this.pendingLastUsed.delete(id);
      dropped++;
    }
    return dropped;
  }

  private async insert(tenantId: string, input: NewKey, raw: string): Promise<{ raw: string; entity: ApiKeyEntity }> {
    if (input.type === 'admin' && input.environment !== undefined) {
      throw new ValidationError('environment applies to endpoint keys only', 'environment');
    }
    if (input.type === 'endpoint' && input.permission !== undefined) {
      throw new ValidationError('permission applies to admin keys only', 'permission');
    }
    await this.checkEndpointIds(tenantId, input.type, input.endpointIds);
    const entity = await this.keys.create({
      tenantId,
      name: input.name,
      type: input.type,
      environment: input.type === 'endpoint' ? this.environmentOf(input) : null,
      permission: input.type === 'admin' ? (input.permission ?? 'ReadWrite') : null,
      keyHash: hashKey(raw),
      last4: last4(raw),
      endpointIds: input.endpointIds ?? null,
      defaultTags: input.defaultTags ?? {},
      ...rateLimitSettingsOf(input),
    });
    // The new key works at once here, and within a second on the other instances, even if it was tried before.
    await this.bus.publish(KEY_CREATED_TOPIC, entity.id);
    return { raw, entity };
  }

  private environmentOf(input: Pick<NewKey, 'type' | 'environment'>): KeyEnvironment | null {
    return input.type === 'endpoint' ? (input.environment ?? 'live') : null;
  }

  private async checkEndpointIds(tenantId: string, type: KeyType, ids: string[] | null | undefined): Promise<void> {
    if (ids === undefined || ids === null) return;
    if (type === 'admin') throw new ValidationError('endpointIds applies to endpoint keys only', 'endpointIds');
    const known = new Set(await this.endpoints.existingIds(tenantId, ids));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new ValidationError(`endpointIds contains unknown endpoints: ${unknown.join(', ')}`, 'endpointIds');
    }
  }

  private async find(tenantId: string, id: string): Promise<ApiKeyEntity> {
    const key = await this.keys.findById(tenantId, id);
    if (!key) throw KeyErrors.keyNotFound(id);
    return key;
  }
}
