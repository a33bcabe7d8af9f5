import type { Principal } from '../auth/principal';
import { rateLimitError } from './key-throttler.guard';
import type { EndpointRateLimits, RateLimitDecision, RateLimiter } from './rate-limiter';

/** A JSON-RPC request id. */
export type RequestId = string | number;

/** How one tool call is counted, before it does any work; each method throws RateLimitError when a window is full. */
export interface McpCallLimits {
  /** Counts the call as one admin request. */
  admitCall(): Promise<void>;
  /** Counts the call as one admin request and one execution on `endpoint` (the key's and the endpoint's windows). */
  admitExecution(endpoint: EndpointRateLimits): Promise<void>;
}

/**
 * The rate limits of one MCP request, counted per tool call, so a JSON-RPC batch of N calls costs N: each call is one
 * admin request of the key, and a call that runs an endpoint is also an execution on it (the key's and the endpoint's
 * execution windows, as a REST execution), both counted in one atomic step. A refused call counts nowhere and does no
 * work. A call that never reached admission (unknown tool, invalid arguments, an endpoint that does not exist) still
 * counts as one admin request, before its answer is sent. Every other message of the request (whatever its method,
 * notifications included) is one admin request too, counted before the request is handled and refused as a whole.
 */
export class McpRequestLimits {
  private readonly counted = new Set<RequestId>();

  constructor(
    private readonly limiter: RateLimiter,
    private readonly principal: Principal,
    private readonly onDecision: (decision: RateLimitDecision) => void,
    /** A call or request was refused (for the metrics). */
    private readonly onRefused: () => void = () => undefined,
  ) {}

  /**
   * Messages other than tool calls (initialize, tools/list, resources/read, notifications, …): one admin request each,
   * counted before any is handled; the first that does not fit refuses the whole request.
   */
  async admitRequests(count: number): Promise<void> {
    for (let counted = 0; counted < count; counted++) {
      const decision = await this.limiter.consumeFor(this.principal, ['admin']);
      this.onDecision(decision);
      if (!decision.allowed) this.refuse(decision);
    }
  }

  /** The limits of the call answered under `requestId`. */
  forCall(requestId: RequestId): McpCallLimits {
    return {
      admitCall: () => this.admit(requestId, null),
      admitExecution: (endpoint) => this.admit(requestId, endpoint),
    };
  }

  /** As the answer to a tool call leaves: counts the call as one admin request if it was never counted. */
  async beforeAnswer(requestId: RequestId): Promise<void> {
    if (this.counted.has(requestId)) return;
    this.counted.add(requestId);
    this.onDecision(await this.limiter.consumeFor(this.principal, ['admin']));
  }

  private refuse(decision: RateLimitDecision): never {
    this.onRefused();
    throw rateLimitError(decision);
  }

  private async admit(requestId: RequestId, endpoint: EndpointRateLimits | null): Promise<void> {
    if (this.counted.has(requestId)) throw new Error('A tool call was counted twice');
    this.counted.add(requestId);
    const decision = await this.limiter.consumeFor(
      this.principal,
      endpoint ? ['admin', 'execution'] : ['admin'],
      endpoint,
    );
    this.onDecision(decision);
    if (!decision.allowed) this.refuse(decision);
  }
}
