import type { Principal } from '../../common/auth/principal';
import { rateLimitError } from '../../common/rate-limit/key-throttler.guard';
import type { EndpointRateLimits, RateLimitDecision, RateLimiter } from '../../common/rate-limit/rate-limiter';

type RequestId = string | number;

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

/** The most messages one JSON-RPC batch may hold. */
export const MAX_BATCH_MESSAGES = 100;

/** What a POST /mcp body holds, for counting it and for the batch rules. */
export interface McpMessages {
  /** How many messages: 1 for a single message, the length of a batch. */
  size: number;
  /** The ids of its `tools/call` requests, in order. */
  toolCallIds: RequestId[];
  /** A request id used twice: answers are matched to requests by id, so a batch may not repeat one. */
  duplicateId?: RequestId;
}

/** Reads the messages of a POST /mcp body (one message or a batch); anything that is not an object is a message too. */
export function mcpMessagesOf(body: unknown): McpMessages {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const seen = new Set<RequestId>();
  let duplicateId: RequestId | undefined;
  for (const message of messages) {
    const id = requestIdOf(message);
    if (id === undefined) continue;
    if (seen.has(id)) duplicateId ??= id;
    seen.add(id);
  }
  return { size: messages.length, toolCallIds: toolCallIdsIn(body), duplicateId };
}

/** The id of a JSON-RPC request (a message with a method and a string or number id); notifications have none. */
function requestIdOf(message: unknown): RequestId | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, id } = message as { method?: unknown; id?: unknown };
  if (typeof method !== 'string') return undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** The ids of the JSON-RPC `tools/call` requests a POST /mcp body holds (one message or a batch). */
export function toolCallIdsIn(body: unknown): RequestId[] {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const ids: RequestId[] = [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, id } = message as { method?: unknown; id?: unknown };
    if (method === 'tools/call' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}
