import type { Principal } from '../auth/principal';
import { RateLimitError } from '../errors/app-error';
import { type RateLimitDecision, RateLimiter, type RateLimitSurface } from './rate-limiter';
import { McpRequestLimits } from './mcp-call-limits';

const principal = { keyId: 'k1' } as Principal;
const endpoint = { id: 'e1', rateLimitPerMinute: 2, rateLimitPerHour: null, rateLimitPerDay: null };

/** Allows the first `room` requests, records what each one counted on. */
class CountingLimiter extends RateLimiter {
  readonly counted: { surfaces: readonly RateLimitSurface[]; endpointId?: string }[] = [];
  constructor(private room: number) {
    super();
  }
  consume(): Promise<RateLimitDecision> {
    throw new Error('not used');
  }
  async consumeFor(
    _: Principal,
    surfaces: readonly RateLimitSurface[],
    limited?: { id: string } | null,
  ): Promise<RateLimitDecision> {
    this.counted.push({ surfaces, endpointId: limited?.id });
    const allowed = this.room-- > 0;
    return {
      allowed,
      reported: { name: 'admin-minute', limit: 3, remaining: 0, resetAtMs: 0 },
      retryAfterSeconds: allowed ? 0 : 42,
    };
  }
}

describe('McpRequestLimits', () => {
  it('counts each message other than a tool call as one admin request, refusing at the first that does not fit', async () => {
    const limiter = new CountingLimiter(2);
    const limits = new McpRequestLimits(limiter, principal, () => undefined);
    await limits.admitRequests(2);
    await expect(limits.admitRequests(3)).rejects.toBeInstanceOf(RateLimitError);
    expect(limiter.counted).toEqual([{ surfaces: ['admin'] }, { surfaces: ['admin'] }, { surfaces: ['admin'] }]);
  });

  it('counts a call as an admin request, and a run as an admin request and an execution on its endpoint', async () => {
    const limiter = new CountingLimiter(10);
    const limits = new McpRequestLimits(limiter, principal, () => undefined);
    await limits.forCall(1).admitCall();
    await limits.forCall(2).admitExecution(endpoint);
    expect(limiter.counted).toEqual([{ surfaces: ['admin'] }, { surfaces: ['admin', 'execution'], endpointId: 'e1' }]);
  });

  it('refuses a call past the limit with a rate_limit_exceeded error', async () => {
    const limits = new McpRequestLimits(new CountingLimiter(0), principal, () => undefined);
    const refusal = limits.forCall(1).admitCall();
    await expect(refusal).rejects.toBeInstanceOf(RateLimitError);
    await expect(refusal).rejects.toMatchObject({
      code: 'rate_limit_exceeded',
      message: 'Rate limit exceeded: retry in 42 seconds',
    });
  });

  it('counts a call that never reached admission once, as its answer leaves, and an admitted one not again', async () => {
    const limiter = new CountingLimiter(10);
    const decisions: RateLimitDecision[] = [];
    const limits = new McpRequestLimits(limiter, principal, (decision) => decisions.push(decision));
    await limits.forCall(1).admitCall();
    await limits.beforeAnswer(1);
    await limits.beforeAnswer(2);
    await limits.beforeAnswer(2);
    expect(limiter.counted).toHaveLength(2);
    expect(decisions).toHaveLength(2);
  });
});
