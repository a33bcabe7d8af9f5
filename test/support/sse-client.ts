import { createParser } from 'eventsource-parser';

/** One server-sent event as received: its name and its parsed JSON data. */
export interface ReceivedEvent {
  event: string;
  data: any;
  /** Milliseconds from the request to this event. */
  atMs: number;
}

export interface StreamedCall {
  status: number;
  headers: Headers;
  events: ReceivedEvent[];
  comments: string[];
  /** The body as text when the answer is not an event stream. */
  body?: any;
}

/**
 * POSTs to `url` with global fetch and reads the answer's event stream with eventsource-parser. `until` stops reading
 * (and closes the connection) as soon as it returns true for an event.
 */
export async function streamCall(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  until?: (event: ReceivedEvent) => boolean,
): Promise<StreamedCall> {
  const startedMs = performance.now();
  const controller = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const result: StreamedCall = { status: response.status, headers: response.headers, events: [], comments: [] };
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const text = await response.text();
    result.body = text ? JSON.parse(text) : undefined;
    return result;
  }
  let stop = false;
  const parser = createParser({
    onEvent: (message) => {
      const event = {
        event: message.event ?? 'message',
        data: JSON.parse(message.data),
        atMs: performance.now() - startedMs,
      };
      result.events.push(event);
      if (until?.(event)) stop = true;
    },
    onComment: (comment) => result.comments.push(comment.trim()),
  });
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
    if (stop) {
      controller.abort();
      break;
    }
  }
  return result;
}

/** The names of the events, in order. */
export const namesOf = (call: StreamedCall): string[] => call.events.map((event) => event.event);
