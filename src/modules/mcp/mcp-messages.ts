import type { RequestId } from '../../common/rate-limit/mcp-call-limits';

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
