import { KeyThrottlerStorage, type ThrottlerStorageRecord } from './rate-limiter';
import { type RedisClient, RedisScripts, withinRedisDeadline } from '../redis/redis-client';
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
 * Windows in one EVAL, each on its own: a window that has room counts the request (a new window starts with its
 * expiry), a full one does not. KEYS are the windows, ARGV their limit and length in ms, in pairs. Returns
 * [hits, pttl, blocked] for each window, one after the other.
 */
const INCREMENT_SCRIPT = `
local replies = {}
for i, key in ipairs(KEYS) do
  local limit, length = tonumber(ARGV[2 * i - 1]), ARGV[2 * i]
  local ttl = redis.call('PTTL', key)
  local hits = 0
  if ttl > 0 then hits = tonumber(redis.call('GET', key) or '0') end
  local blocked = 1
  if hits < limit then
    blocked = 0
    if ttl > 0 then
      hits = redis.call('INCR', key)
    else
      redis.call('SET', key, 1, 'PX', length)
      hits, ttl = 1, tonumber(length)
    end
  end
  replies[#replies + 1] = hits
  replies[#replies + 1] = ttl
  replies[#replies + 1] = blocked
end
return replies
`;

/** Gives back one hit of a live window. */
const RELEASE_SCRIPT = `
if redis.call('PTTL', KEYS[1]) > 0 and tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0
`;

const KEY_PREFIX = 'promptgate:rl:';

/** A window counted by `increment`, waiting to be sent with the others of its synchronous run. */
interface QueuedIncrement {
  key: string;
  ttl: number;
  limit: number;
  settle: (record: ThrottlerStorageRecord) => void;
}

/** The hash tag of a window key (its key id, see windowKey): windows sent in one script call share it. */
const hashTagOf = (key: string): string => /\{[^}]*\}/.exec(key)?.[0] ?? key;

/**
 * Windows in Redis, shared by every instance. The windows counted in one synchronous run (a request's windows, see
 * WindowAdmission) are sent in one EVALSHA per key id, from a microtask, so a request costs one script call whatever
 * its number of windows (EVAL once per script load). Redis unreachable or slower than the Redis deadline: the windows
 * are counted in the in-process fallback instead (fail open, but still limited per instance), so the service keeps
 * answering.
 */
export class RedisThrottlerStorage extends KeyThrottlerStorage {
  private readonly scripts: RedisScripts;
  private queued: QueuedIncrement[] = [];

  constructor(
    private readonly client: RedisClient,
    private readonly fallback: MemoryThrottlerStorage,
    private readonly onFallback: (error: Error) => void,
  ) {
    super();
    this.scripts = new RedisScripts(client);
  }

  /** Fixed windows, as in memory: a full window refuses until it resets, whatever blockDuration says. */
  increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    _throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    return new Promise((settle) => {
      if (this.queued.length === 0) queueMicrotask(() => this.sendQueued());
      this.queued.push({ key, ttl, limit, settle });
    });
  }

  async release(key: string): Promise<void> {
    try {
      await this.run(RELEASE_SCRIPT, [key], []);
    } catch (error) {
      this.onFallback(error as Error);
      await this.fallback.release(key);
    }
  }

  private sendQueued(): void {
    const byTag = new Map<string, QueuedIncrement[]>();
    for (const increment of this.queued) {
      const tag = hashTagOf(increment.key);
      const batch = byTag.get(tag);
      if (batch) batch.push(increment);
      else byTag.set(tag, [increment]);
    }
    this.queued = [];
    for (const batch of byTag.values()) void this.send(batch);
  }

  private async send(batch: QueuedIncrement[]): Promise<void> {
    let replies: number[];
    try {
      const args = batch.flatMap(({ limit, ttl }) => [String(limit), String(ttl)]);
      replies = await this.run(
        INCREMENT_SCRIPT,
        batch.map(({ key }) => key),
        args,
      );
    } catch (error) {
      this.onFallback(error as Error);
      for (const { key, ttl, limit, settle } of batch) settle(await this.fallback.increment(key, ttl, limit));
      return;
    }
    batch.forEach(({ settle }, i) =>
      settle(storageRecord(Number(replies[3 * i]), Number(replies[3 * i + 1]), Number(replies[3 * i + 2]) === 1)),
    );
  }

  private async run(script: string, keys: string[], args: string[]): Promise<number[]> {
    if (!this.client.isReady) throw new Error('not connected');
    const keyed = keys.map((key) => KEY_PREFIX + key);
    return withinRedisDeadline(this.scripts.run(script, { keys: keyed, arguments: args }) as Promise<number[]>);
  }
}
