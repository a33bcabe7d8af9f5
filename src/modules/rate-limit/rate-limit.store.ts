import { KeyThrottlerStorage, type ThrottlerStorageRecord } from '../../common/rate-limit/rate-limiter';
import { type RedisClient, withinRedisDeadline } from '../../common/redis/redis-client';
import { hitWindow, isLive, storageRecord, type WindowCounter } from './rate-windows';

const SWEEP_EVERY_MS = 60_000;

/**
 * Windows in process memory (no REDIS_URL, and the fallback while Redis is down). Each call reads, decides and writes
 * synchronously: Node runs it without interleaving, so a window is exact within the instance.
 */
export class MemoryThrottlerStorage extends KeyThrottlerStorage {
  private readonly counters = new Map<string, WindowCounter>();
  private lastSweep = Date.now();

  /** Fixed windows: a full window refuses until it resets, whatever blockDuration says. */
  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const nowMs = Date.now();
    this.sweep(nowMs);
    let counter = this.counters.get(key);
    if (!isLive(counter, nowMs)) {
      counter = { hits: 0, resetAtMs: nowMs + ttl };
      this.counters.set(key, counter);
    }
    return hitWindow(counter, limit, nowMs);
  }

  async release(key: string): Promise<void> {
    const counter = this.counters.get(key);
    if (isLive(counter, Date.now()) && counter.hits > 0) counter.hits--;
  }

  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = nowMs;
    for (const [key, counter] of this.counters) if (!isLive(counter, nowMs)) this.counters.delete(key);
  }
}

/**
 * One window in one EVAL: a window that has room counts the request (a new window starts with its expiry), a full
 * one does not. Returns [hits, pttl, blocked].
 */
const INCREMENT_SCRIPT = `
local ttl = redis.call('PTTL', KEYS[1])
local hits = 0
if ttl > 0 then hits = tonumber(redis.call('GET', KEYS[1]) or '0') end
if hits >= tonumber(ARGV[1]) then return { hits, ttl, 1 } end
if ttl > 0 then
  hits = redis.call('INCR', KEYS[1])
else
  redis.call('SET', KEYS[1], 1, 'PX', ARGV[2])
  hits, ttl = 1, tonumber(ARGV[2])
end
return { hits, ttl, 0 }
`;

/** Gives back one hit of a live window. */
const RELEASE_SCRIPT = `
if redis.call('PTTL', KEYS[1]) > 0 and tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0
`;

const KEY_PREFIX = 'promptgate:rl:';

/**
 * Windows in Redis, shared by every instance: one EVALSHA per window (EVAL once per script load); a request's windows
 * are counted at once, so the client sends them in one round trip. Redis
 * unreachable or slower than the Redis deadline: the window is counted in the in-process fallback instead (fail open,
 * but still limited per instance), so the service keeps answering.
 */
export class RedisThrottlerStorage extends KeyThrottlerStorage {
  private readonly shas = new Map<string, string>();

  constructor(
    private readonly client: RedisClient,
    private readonly fallback: MemoryThrottlerStorage,
    private readonly onFallback: (error: Error) => void,
  ) {
    super();
  }

  /** Fixed windows, as in memory: a full window refuses until it resets, whatever blockDuration says. */
  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    _throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    try {
      const [hits, pttl, blocked] = await this.run(INCREMENT_SCRIPT, key, [String(limit), String(ttl)]);
      return storageRecord(Number(hits), Number(pttl), Number(blocked) === 1);
    } catch (error) {
      this.onFallback(error as Error);
      return this.fallback.increment(key, ttl, limit);
    }
  }

  async release(key: string): Promise<void> {
    try {
      await this.run(RELEASE_SCRIPT, key, []);
    } catch (error) {
      this.onFallback(error as Error);
      await this.fallback.release(key);
    }
  }

  private async run(script: string, key: string, args: string[]): Promise<number[]> {
    if (!this.client.isReady) throw new Error('not connected');
    return withinRedisDeadline(this.evaluate(script, { keys: [KEY_PREFIX + key], arguments: args }));
  }

  private async evaluate(script: string, options: { keys: string[]; arguments: string[] }): Promise<number[]> {
    const sha = this.shas.get(script);
    if (sha) {
      try {
        return (await this.client.evalSha(sha, options)) as number[];
      } catch (error) {
        if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
      }
    }
    const loaded = await this.client.scriptLoad(script);
    this.shas.set(script, loaded);
    return (await this.client.evalSha(loaded, options)) as number[];
  }
}
