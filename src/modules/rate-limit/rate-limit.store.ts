import type { RateLimitDecision, RateWindow } from '../../common/rate-limit/rate-limiter';
import { type RedisClient, withinRedisDeadline } from '../../common/redis/redis-client';
import { consumeWindows, decide, stateOf, type WindowCounter } from './rate-windows';

/** Checks and counts a request in all its windows in one atomic step. */
export interface RateLimitStore {
  consume(windows: RateWindow[]): Promise<RateLimitDecision>;
}

const SWEEP_EVERY_MS = 60_000;

/**
 * Counters in process memory (no REDIS_URL, and the fallback while Redis is down). One synchronous read-decide-write
 * per request: Node runs it without interleaving, so it is atomic within the instance.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, WindowCounter>();
  private lastSweep = Date.now();

  async consume(windows: RateWindow[]): Promise<RateLimitDecision> {
    const now = Date.now();
    this.sweep(now);
    const { decision, counters } = consumeWindows(windows, windows.map((w) => this.counters.get(w.key)), now);
    if (decision.allowed) windows.forEach((window, i) => this.counters.set(window.key, counters[i]));
    return decision;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    for (const [key, counter] of this.counters) if (counter.resetAtMs <= now) this.counters.delete(key);
  }
}

/**
 * Every window in one EVAL: read all counters, and only when each has room, count the request in all of them (a new
 * window starts with its expiry). Returns [allowed, hits1, pttl1, hits2, pttl2, …].
 */
const CONSUME_SCRIPT = `
local allowed = 1
local hits, ttls = {}, {}
for i = 1, #KEYS do
  local ttl = redis.call('PTTL', KEYS[i])
  local count = 0
  if ttl > 0 then count = tonumber(redis.call('GET', KEYS[i]) or '0') end
  hits[i], ttls[i] = count, ttl
  if count >= tonumber(ARGV[2 * i - 1]) then allowed = 0 end
end
if allowed == 1 then
  for i = 1, #KEYS do
    if ttls[i] > 0 then
      hits[i] = redis.call('INCR', KEYS[i])
    else
      redis.call('SET', KEYS[i], 1, 'PX', ARGV[2 * i])
      hits[i], ttls[i] = 1, tonumber(ARGV[2 * i])
    end
  end
end
local reply = { allowed }
for i = 1, #KEYS do
  reply[#reply + 1] = hits[i]
  reply[#reply + 1] = ttls[i]
end
return reply
`;

const KEY_PREFIX = 'promptgate:rl:';

/**
 * Counters in Redis, shared by every instance: one round trip per request (EVALSHA, EVAL once per script load).
 * Redis unreachable or slow: the request is counted in the in-process fallback instead (fail open, but still
 * limited per instance), so the service keeps answering.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private sha?: string;

  constructor(
    private readonly client: RedisClient,
    private readonly fallback: MemoryRateLimitStore,
    private readonly onFallback: (error: Error) => void,
  ) {}

  async consume(windows: RateWindow[]): Promise<RateLimitDecision> {
    if (!this.client.isReady) {
      this.onFallback(new Error('not connected'));
      return this.fallback.consume(windows);
    }
    try {
      const reply = await withinRedisDeadline(this.evaluate(windows));
      return this.decisionOf(windows, reply, Date.now());
    } catch (error) {
      this.onFallback(error as Error);
      return this.fallback.consume(windows);
    }
  }

  private async evaluate(windows: RateWindow[]): Promise<number[]> {
    const options = {
      keys: windows.map((window) => KEY_PREFIX + window.key),
      arguments: windows.flatMap((window) => [String(window.limit), String(window.ttlMs)]),
    };
    if (this.sha) {
      try {
        return (await this.client.evalSha(this.sha, options)) as number[];
      } catch (error) {
        if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
      }
    }
    this.sha = await this.client.scriptLoad(CONSUME_SCRIPT);
    return (await this.client.evalSha(this.sha, options)) as number[];
  }

  private decisionOf(windows: RateWindow[], reply: number[], now: number): RateLimitDecision {
    const states = windows.map((window, i) => {
      const hits = Number(reply[1 + 2 * i]);
      const ttl = Number(reply[2 + 2 * i]);
      return stateOf(window, ttl > 0 ? { hits, resetAtMs: now + ttl } : { hits: 0, resetAtMs: now + window.ttlMs });
    });
    return decide(Number(reply[0]) === 1, states, now);
  }
}
