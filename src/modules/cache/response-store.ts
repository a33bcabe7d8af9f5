import type { Cache } from 'cache-manager';
import type { Keyv } from 'keyv';
import { withinRedisDeadline } from '../../common/redis/redis-client';
import type { Clock } from '../../common/time/clock';
import type { EndpointCacheIndex } from './endpoint-cache-index';
import type { MemoryResponseStore } from './memory-response-store';

/** A successful execution answer as cached: the body sent, and what its log row shows. */
export interface CachedResponse {
  body: unknown;
  /** The prompt the answer was produced from (absent in entries stored before it was kept). */
  renderedPrompt?: string;
  /** Its messages, each `{role, content}` (absent in entries stored before they were kept). */
  renderedMessages?: { role: string; content: string }[];
  rawResponse: string | null;
  parsedOutput: unknown;
  /** Why the model stopped (absent in entries stored before it was kept). */
  finishReason?: string | null;
}

/** Whose answer an entry is: the tenant its bytes count against, and the endpoint that removes it. */
export interface CacheOwner {
  tenantId: string;
  endpointId: string;
}

/** Where cached answers are kept: in process memory, or in Redis shared by every instance. */
export abstract class ResponseStore {
  abstract get(key: string): Promise<CachedResponse | undefined>;
  /** Stores `value`, whose JSON text is `text`, for `ttlMs`. */
  abstract set(owner: CacheOwner, key: string, value: CachedResponse, text: string, ttlMs: number): Promise<void>;
  abstract removeEndpoint(endpointId: string): Promise<void>;
  /** Failures the store absorbs itself (a lookup that misses, a store skipped) are reported to `listener`. */
  abstract onFailure(listener: (error: unknown) => void): void;
}

/** In process: bounded by bytes, overall and per tenant (see MemoryResponseStore). */
export class InProcessResponseStore extends ResponseStore {
  constructor(private readonly memory: MemoryResponseStore) {
    super();
  }

  async get(key: string): Promise<CachedResponse | undefined> {
    const text = this.memory.get(key);
    // Each hit gets an answer of its own, as one read from Redis would.
    return text === undefined ? undefined : (JSON.parse(text) as CachedResponse);
  }

  async set(owner: CacheOwner, key: string, _value: CachedResponse, text: string, ttlMs: number): Promise<void> {
    this.memory.set(owner, key, text, ttlMs);
  }

  async removeEndpoint(endpointId: string): Promise<void> {
    this.memory.removeEndpoint(endpointId);
  }

  onFailure(): void {}
}

/** An answer as Redis holds it: with when it expires (Unix milliseconds; absent in entries stored before it was kept). */
type ExpiringResponse = CachedResponse & { expiresAt?: number };

/**
 * Redis, through cache-manager over keyv on the instance's shared connection, with a per-endpoint index of keys so a permanent endpoint
 * delete needs no key scan. Redis's own memory is bounded by its maxmemory policy, which the operator sets; each entry
 * is bounded by the cache's entry cap before it gets here. Every call is held to the Redis deadline.
 */
export class RedisResponseStore extends ResponseStore {
  constructor(
    private readonly cache: Cache,
    private readonly keyv: Keyv,
    private readonly index: EndpointCacheIndex,
    private readonly clock: Clock,
  ) {
    super();
  }

  async get(key: string): Promise<CachedResponse | undefined> {
    const stored = await withinRedisDeadline(this.cache.get<ExpiringResponse>(key));
    if (!stored) return undefined;
    const { expiresAt, ...answer } = stored;
    // Redis removes the entry at its TTL; the time stored with it says the same by the service's clock.
    return expiresAt !== undefined && expiresAt <= this.clock.epochNow() ? undefined : answer;
  }

  async set(owner: CacheOwner, key: string, value: CachedResponse, _text: string, ttlMs: number): Promise<void> {
    await withinRedisDeadline(this.index.add(owner.endpointId, key, ttlMs));
    const stored: ExpiringResponse = { ...value, expiresAt: this.clock.epochNow() + ttlMs };
    await withinRedisDeadline(this.cache.set(key, stored, ttlMs));
  }

  async removeEndpoint(endpointId: string): Promise<void> {
    const keys = await withinRedisDeadline(this.index.take(endpointId));
    if (keys.length > 0) await withinRedisDeadline(this.cache.mdel(keys));
  }

  onFailure(listener: (error: unknown) => void): void {
    this.keyv.on('error', listener);
  }
}
