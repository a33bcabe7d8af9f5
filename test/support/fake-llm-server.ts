import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/**

 * How a streamed answer is sent: the time to its first chunk, how many chunks the text is cut into, and the pause
 * between two chunks (defaults: at once, 4 chunks, no pause). `pieceLengths` cuts the text at chosen places instead
 * (the lengths of its pieces in order; what they leave over is one last piece). The events go out as the wire bytes
 * they make; `wireSlices` writes those bytes in slices of these sizes (repeated in turn), each written on its own
 * turn of the event loop, so a slice boundary may fall anywhere: inside an event, a JSON string or a UTF-8 character.
 */
export interface FakeStreamShape {
  firstChunkMs?: number;
  chunks?: number;
  chunkDelayMs?: number;
  pieceLengths?: number[];
  wireSlices?: number[];
}

/**
 * What the next request gets. Replies are consumed in order, whatever provider route the request hits: a text (any
 * text: JSON off the output fields too), images, an error status in the provider's own error format (with a
 * Retry-After header when `retryAfter` is given, as providers send with a 429 or 503), or a dropped connection (no
 * HTTP answer at all). `delayMs` holds the reply back; a delay longer than the caller waits is a hang. A request that
 * asks for a stream (`stream: true`, or Gemini's `:streamGenerateContent`) gets a text reply in the provider's own
 * streaming wire format, shaped by `stream`.
 */
export type FakeReply =
  | {
      text: string;
      inputTokens?: number;
      outputTokens?: number;
      delayMs?: number;
      stream?: FakeStreamShape;
      /** A plain (not streamed) answer's JSON body written in this many pieces, `pauseMs` apart. */
      paced?: { pieces: number; pauseMs: number };
      /** Anthropic streams: an `error` event with this message after the first text chunk, ending the stream. */
      streamError?: string;
    }
  | { images: { b64: string; revisedPrompt?: string }[]; inputTokens?: number; outputTokens?: number; delayMs?: number }
  | { status: number; message: string; retryAfter?: string; delayMs?: number }
  | { drop: true; delayMs?: number };

export interface ReceivedRequest {
  method: string;
  path: string;
  /** The provider route the request was recognised as. */
  route: FakeRoute;
  headers: http.IncomingHttpHeaders;
  body: any;
  /**
   * True once the client closed the connection before the answer was complete: a streamed or paced answer, or one
   * held back by `delayMs`.
   */
  closedEarly?: boolean;
  /** True once the answer was handed to the connection in full. */
  answered?: boolean;
}

export type FakeRoute =
  | 'openai.responses'
  | 'openai.chat'
  | 'openai.images'
  | 'anthropic.messages'
  | 'google.generateContent'
  | 'google.streamGenerateContent';

/** A 1×1 PNG, what image replies send unless a test scripts other bytes. */
export const FAKE_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

/**
 * A real HTTP server on 127.0.0.1 speaking the wire formats our AI SDK adapters use: OpenAI Responses
 * (`/v1/responses`), Chat Completions (`…/chat/completions`, OpenAI-compatible servers), image generations
 * (`…/images/generations`), Anthropic Messages (`/v1/messages`) and Google (`…:generateContent`, text and images).
 * Tests script replies, delays and failures with `reply()` and read what arrived from `requests` (the messages of a
 * text request, whatever its provider, with `receivedMessages`).
 */
export class FakeLlmServer {
  readonly requests: ReceivedRequest[] = [];
  private readonly queue: FakeReply[] = [];
  private readonly sockets = new Set<Socket>();
  private choose?: (request: ReceivedRequest) => FakeReply | undefined;

  private readonly server = http.createServer((req, res) => void this.handle(req, res));
  private address = '';

  /** A server not listening yet: `listen()` starts it (a suite can hand it out before its hooks run). */
  constructor() {
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(): Promise<FakeLlmServer> {
    const instance = new FakeLlmServer();
    await instance.listen();
    return instance;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.address = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Where it listens, `http://127.0.0.1:<port>`. */
  get url(): string {
    return this.address;
  }

  /** Queue the answers of the next requests. */
  reply(...replies: FakeReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /**
   * Answers chosen from each request (by its model, say) before the queue is consulted, for tests whose callers run
   * side by side and so cannot rely on the order of the queue; `undefined` from `choose` falls back to the queue.
   */
  replyBy(choose: (request: ReceivedRequest) => FakeReply | undefined): this {
    this.choose = choose;
    return this;
  }

  /** The most recent request (fails the test when none arrived). */
  last(): ReceivedRequest {
    const request = this.requests[this.requests.length - 1];
    if (!request) throw new Error('The fake LLM server received no request');
    return request;
  }

  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
    this.choose = undefined;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '/').split('?')[0];
    const route = routeOf(req.method ?? 'GET', path);
    if (!route) return send(res, 404, { error: { message: `fake LLM server: no route ${req.method} ${path}` } });
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const received: ReceivedRequest = { method: req.method ?? 'GET', path, route, headers: req.headers, body };
    this.requests.push(received);
    res.on('finish', () => (received.answered = true));
    const reply = this.choose?.(received) ?? this.queue.shift() ?? { text: 'fake reply' };
    if (reply.delayMs) {
      const aborted = await delay(reply.delayMs, req);
      if (aborted) {
        received.closedEarly = true;
        return;
      }
    }
    if ('drop' in reply) {
      req.socket.destroy();
      return;
    }
    if ('status' in reply) {
      const headers: Record<string, string> = reply.retryAfter !== undefined ? { 'retry-after': reply.retryAfter } : {};
      return send(res, reply.status, errorBody(route, reply.status, reply.message), headers);
    }
    const request = body as Record<string, any>;
    if ('text' in reply && (route === 'google.streamGenerateContent' || request?.stream === true)) {
      return streamReply(req, res, route, reply, request, received);
    }
    if ('text' in reply && reply.paced)
      return pacedReply(req, res, successBody(route, reply, request), reply.paced, received);
    send(res, 200, successBody(route, reply, request));
  }
}

/** A JSON body written in pieces: the client may close the connection before the last one. */
async function pacedReply(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: unknown,
  paced: { pieces: number; pauseMs: number },
  received: ReceivedRequest,
): Promise<void> {
  const text = JSON.stringify(body);
  const step = Math.ceil(text.length / paced.pieces);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.on('close', () => {
    if (!res.writableFinished) received.closedEarly = true;
  });
  for (let start = 0; start < text.length; start += step) {
    if (res.destroyed) return;
    res.write(text.slice(start, start + step));
    if (start + step < text.length && (await delay(paced.pauseMs, req))) return;
  }
  res.end();
}

/** Server-sent events, as each provider streams its answer. */
async function streamReply(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  route: FakeRoute,
  reply: Extract<FakeReply, { text: string }>,
  request: Record<string, any>,
  received: ReceivedRequest,
): Promise<void> {
  const shape = reply.stream ?? {};
  const events = builtEvents(route, reply, request);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let closed = false;
  res.on('close', () => {
    closed = true;
    if (!res.writableFinished) received.closedEarly = true;
  });
  if (shape.firstChunkMs && (await delay(shape.firstChunkMs, req))) return;
  // Events that follow each other without a pause go out in one write: the same bytes, and a stream of many thousands
  // of tiny chunks costs this server (which shares its process with the test) one write instead of thousands.
  let pending = '';
  const flush = async (): Promise<void> => {
    const bytes = Buffer.from(pending, 'utf8');
    pending = '';
    if (!shape.wireSlices) {
      if (bytes.length > 0) res.write(bytes);
      return;
    }
    for (let offset = 0, turn = 0; offset < bytes.length && !closed; turn++) {
      const size = Math.max(1, shape.wireSlices[turn % shape.wireSlices.length]);
      res.write(bytes.subarray(offset, offset + size));
      offset += size;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  let pieceSent = false;
  for (const event of events) {
    if (closed) return;
    // The pause comes between two text chunks only; the events around them follow at once.
    if (event.piece && pieceSent && shape.chunkDelayMs) {
      await flush();
      if (closed || (await delay(shape.chunkDelayMs, req))) return;
    }
    pending += wireOf(route, event);
    if (event.piece && reply.streamError !== undefined && route === 'anthropic.messages') {
      const error = { type: 'error', error: { type: 'overloaded_error', message: reply.streamError } };
      pending += `event: error\ndata: ${JSON.stringify(error)}\n\n`;
      await flush();
      res.end();
      return;
    }
    pieceSent ||= event.piece === true;
  }
  await flush();
  if (!closed) res.end();
}

/** The text in `count` pieces of equal length (4 by default; the last may be shorter). */
function evenPieces(text: string, count = 4): string[] {
  const pieces = Math.max(1, count);
  const step = Math.ceil(text.length / pieces) || 1;
  return Array.from({ length: pieces }, (_, index) => text.slice(index * step, (index + 1) * step));
}

/**
 * The text cut after each of `lengths` characters (code points, as a provider never splits one) in turn; the rest,
 * when any, is one more piece.
 */
function cutInto(text: string, lengths: number[]): string[] {
  const characters = Array.from(text);
  const pieces: string[] = [];
  let offset = 0;
  for (const length of lengths) {
    if (offset >= characters.length) break;
    const end = offset + Math.max(1, length);
    pieces.push(characters.slice(offset, end).join(''));
    offset = end;
  }
  if (offset < characters.length || pieces.length === 0) pieces.push(characters.slice(offset).join(''));
  return pieces;
}

/**
 * The bytes of a text reply streamed on `route` for `request` (its model, its stream options): what the server writes,
 * in one piece.
 */
export function fakeStreamWire(
  route: FakeRoute,
  reply: Extract<FakeReply, { text: string }>,
  request: Record<string, any>,
): string {
  return builtEvents(route, reply, request)
    .map((event) => wireOf(route, event))
    .join('');
}

/** One event as the provider writes it: Gemini ends its lines with CRLF, the others with LF. */
function wireOf(route: FakeRoute, event: WireEvent): string {
  if (route === 'google.streamGenerateContent') return `data: ${event.data}\r\n\r\n`;
  return event.name ? `event: ${event.name}\ndata: ${event.data}\n\n` : `data: ${event.data}\n\n`;
}

/** The events of replies already streamed, by reply: a test answering many calls with one reply builds them once. */
const eventsByReply = new WeakMap<object, { key: string; events: WireEvent[] }>();

function builtEvents(
  route: FakeRoute,
  reply: Extract<FakeReply, { text: string }>,
  request: Record<string, any>,
): WireEvent[] {
  const key = `${route} ${String(request?.model)} ${JSON.stringify(request?.stream_options ?? null)}`;
  const built = eventsByReply.get(reply);
  if (built?.key === key) return built.events;
  const shape = reply.stream ?? {};
  const pieces = shape.pieceLengths ? cutInto(reply.text, shape.pieceLengths) : evenPieces(reply.text, shape.chunks);
  const events = streamEvents(route, pieces, reply, request);
  eventsByReply.set(reply, { key, events });
  return events;
}

interface WireEvent {
  name?: string;
  data: string;
  /** A chunk of the text (the events paced by chunkDelayMs). */
  piece?: boolean;
}

function streamEvents(
  route: FakeRoute,
  pieces: string[],
  reply: Extract<FakeReply, { text: string }>,
  request: Record<string, any>,
): WireEvent[] {
  const input = reply.inputTokens ?? 11;
  const output = reply.outputTokens ?? 7;
  const created = Math.floor(Date.now() / 1000);
  const json = (value: unknown) => JSON.stringify(value);
  switch (route) {
    case 'openai.responses': {
      // Every event names its type twice (`event:` and `type`) and counts itself (`sequence_number`), as OpenAI's do.
      let sequence = 0;
      const named = (type: string, value: object, piece = false): WireEvent => ({
        name: type,
        data: json({ type, sequence_number: sequence++, ...value }),
        piece,
      });
      const item = { type: 'message', id: 'msg_fake', status: 'in_progress', role: 'assistant', content: [] };
      const text = pieces.join('');
      const part = { type: 'output_text', annotations: [], text };
      const response = { id: 'resp_fake', object: 'response', created_at: created, model: request?.model };
      return [
        named('response.created', { response: { ...response, status: 'in_progress', usage: null } }),
        named('response.in_progress', { response: { ...response, status: 'in_progress', usage: null } }),
        named('response.output_item.added', { output_index: 0, item }),
        named('response.content_part.added', {
          item_id: 'msg_fake',
          output_index: 0,
          content_index: 0,
          part: { ...part, text: '' },
        }),
        ...pieces.map((delta) =>
          named('response.output_text.delta', { item_id: 'msg_fake', output_index: 0, content_index: 0, delta }, true),
        ),
        named('response.output_text.done', { item_id: 'msg_fake', output_index: 0, content_index: 0, text }),
        named('response.content_part.done', { item_id: 'msg_fake', output_index: 0, content_index: 0, part }),
        named('response.output_item.done', {
          output_index: 0,
          item: { ...item, status: 'completed', content: [part] },
        }),
        named('response.completed', {
          response: {
            ...response,
            status: 'completed',
            incomplete_details: null,
            usage: responsesUsage(input, output),
          },
        }),
      ];
    }
    case 'openai.chat': {
      const chunk = (delta: object, finish: string | null, extra: object = {}) =>
        json({
          id: 'chatcmpl-fake',
          object: 'chat.completion.chunk',
          created,
          model: request?.model,
          choices: [{ index: 0, delta, finish_reason: finish }],
          ...extra,
        });
      const usage = { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
      return [
        { data: chunk({ role: 'assistant', content: '' }, null) },
        ...pieces.map((content) => ({ data: chunk({ content }, null), piece: true })),
        { data: chunk({}, 'stop') },
        // With stream_options.include_usage the usage comes last, in a chunk without choices.
        ...(request?.stream_options?.include_usage
          ? [
              {
                data: json({
                  id: 'chatcmpl-fake',
                  object: 'chat.completion.chunk',
                  created,
                  model: request?.model,
                  choices: [],
                  usage,
                }),
              },
            ]
          : []),
        { data: '[DONE]' },
      ];
    }
    case 'anthropic.messages': {
      const named = (type: string, value: object, piece = false): WireEvent => ({
        name: type,
        data: json({ type, ...value }),
        piece,
      });
      return [
        named('message_start', {
          message: {
            id: 'msg_fake',
            type: 'message',
            role: 'assistant',
            model: request?.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: input, output_tokens: 1 },
          },
        }),
        named('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        named('ping', {}),
        ...pieces.map((text) => named('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }, true)),
        named('content_block_stop', { index: 0 }),
        named('message_delta', {
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: output },
        }),
        named('message_stop', {}),
      ];
    }
    case 'google.streamGenerateContent':
      return pieces.map((text, index) => {
        const last = index === pieces.length - 1;
        return {
          data: json({
            candidates: [
              { content: { role: 'model', parts: [{ text }] }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) },
            ],
            ...(last
              ? {
                  usageMetadata: {
                    promptTokenCount: input,
                    candidatesTokenCount: output,
                    totalTokenCount: input + output,
                  },
                }
              : {}),
            modelVersion: 'fake',
          }),
          piece: true,
        };
      });
    default:
      throw new Error(`fake LLM server: ${route} does not stream`);
  }
}

/** A message as a provider received it, in one form for every provider: its role and its parts in order. */
export interface ReceivedMessage {
  /** As the provider names it: `system` (OpenAI's `developer` too), `user`, `assistant` (Google's `model`). */
  role: string;
  /** Text parts as their text, image parts as `{ image: <media type> }`. */
  parts: (string | { image: string })[];
}

/**
 * The messages a text request carried, read from each provider's own fields: OpenAI Responses `input` and Chat
 * Completions `messages` (system messages among them), Anthropic `system` and `messages`, Google `systemInstruction`
 * and `contents`. The system message, when there is one, comes first.
 */
export function receivedMessages(request: ReceivedRequest): ReceivedMessage[] {
  const body = request.body as Record<string, any>;
  switch (request.route) {
    case 'openai.responses':
      return (body.input as any[]).map((item) => ({
        role: item.role,
        parts:
          typeof item.content === 'string'
            ? [item.content]
            : (item.content as any[]).map((part) =>
                part.type === 'input_image' ? { image: mediaTypeOf(part.image_url) } : part.text,
              ),
      }));
    case 'openai.chat':
      return (body.messages as any[]).map((message) => ({
        role: message.role,
        parts:
          typeof message.content === 'string'
            ? [message.content]
            : (message.content as any[]).map((part) =>
                part.type === 'image_url' ? { image: mediaTypeOf(part.image_url.url) } : part.text,
              ),
      }));
    case 'anthropic.messages': {
      const system = body.system
        ? [{ role: 'system', parts: (body.system as any[]).map((part) => part.text as string) }]
        : [];
      return [
        ...system,
        ...(body.messages as any[]).map((message) => ({
          role: message.role,
          parts: (message.content as any[]).map((part) =>
            part.type === 'image' ? { image: part.source.media_type as string } : (part.text as string),
          ),
        })),
      ];
    }
    case 'google.generateContent':
    case 'google.streamGenerateContent': {
      const system = body.systemInstruction
        ? [{ role: 'system', parts: (body.systemInstruction.parts as any[]).map((part) => part.text as string) }]
        : [];
      return [
        ...system,
        ...(body.contents as any[]).map((content) => ({
          role: content.role,
          parts: (content.parts as any[]).map((part) =>
            part.inlineData ? { image: part.inlineData.mimeType as string } : (part.text as string),
          ),
        })),
      ];
    }
    default:
      throw new Error(`fake LLM server: ${request.route} carries no messages`);
  }
}

/** The media type of a data URI. */
function mediaTypeOf(uri: string): string {
  return /^data:([^;,]+)/.exec(uri)?.[1] ?? uri;
}

function routeOf(method: string, path: string): FakeRoute | undefined {
  if (method !== 'POST') return undefined;
  if (path.endsWith('/responses')) return 'openai.responses';
  if (path.endsWith('/chat/completions')) return 'openai.chat';
  if (path.endsWith('/images/generations')) return 'openai.images';
  if (path.endsWith('/messages')) return 'anthropic.messages';
  if (path.endsWith(':generateContent')) return 'google.generateContent';
  if (path.endsWith(':streamGenerateContent')) return 'google.streamGenerateContent';
  return undefined;
}

function successBody(
  route: FakeRoute,
  reply: Exclude<FakeReply, { status: number } | { drop: true }>,
  request: Record<string, any>,
): unknown {
  const text = 'text' in reply ? reply.text : '';
  const images = 'images' in reply ? reply.images : [{ b64: FAKE_PNG, revisedPrompt: 'fake revised prompt' }];
  const input = reply.inputTokens ?? 11;
  const output = reply.outputTokens ?? 7;
  const created = Math.floor(Date.now() / 1000);
  switch (route) {
    case 'openai.responses':
      return {
        id: 'resp_fake',
        object: 'response',
        created_at: created,
        status: 'completed',
        model: request?.model,
        output: [
          {
            type: 'message',
            id: 'msg_fake',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text, annotations: [] }],
          },
        ],
        usage: responsesUsage(input, output),
      };
    case 'openai.chat':
      return {
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created,
        model: request?.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
      };
    case 'openai.images':
      return {
        created,
        data: images.map((image) => ({
          b64_json: image.b64,
          ...(image.revisedPrompt ? { revised_prompt: image.revisedPrompt } : {}),
        })),
        usage: { input_tokens: input, output_tokens: output, total_tokens: input + output },
      };
    case 'anthropic.messages':
      return {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model: request?.model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: input, output_tokens: output },
      };
    case 'google.generateContent':
    case 'google.streamGenerateContent': {
      // Gemini image models answer image generation (responseModalities IMAGE) with inline data parts.
      const parts =
        'images' in reply
          ? reply.images.map((image) => ({ inlineData: { mimeType: 'image/png', data: image.b64 } }))
          : [{ text }];
      return {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: input + output },
        modelVersion: 'fake',
      };
    }
  }
}

/** The error body each provider sends for a status, with the error type or status name it gives it. */
function errorBody(route: FakeRoute, status: number, message: string): unknown {
  if (route === 'anthropic.messages') {
    const type =
      status === 429
        ? 'rate_limit_error'
        : status === 529
          ? 'overloaded_error'
          : status >= 500
            ? 'api_error'
            : 'invalid_request_error';
    return { type: 'error', error: { type, message } };
  }
  if (route.startsWith('google.')) {
    const name =
      status === 429
        ? 'RESOURCE_EXHAUSTED'
        : status === 503
          ? 'UNAVAILABLE'
          : status >= 500
            ? 'INTERNAL'
            : 'INVALID_ARGUMENT';
    return { error: { code: status, message, status: name } };
  }
  const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: null } };
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Waits, unless the client gives up first (a timed-out call closes its connection): then resolves true. */
function delay(ms: number, req: http.IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    const closed = () => {
      clearTimeout(timer);
      resolve(true);
    };
    // The listener goes with its wait: a stream paced in many pauses must not pile them up on its socket.
    const timer = setTimeout(() => {
      req.socket.off('close', closed);
      resolve(false);
    }, ms);
    req.socket.once('close', closed);
  });
}

/**
 * A priced model of the fake server (with `priced`): a thousandth of a dollar per input token and per output token,
 * so a call's cost in dollars is its tokens / 1000.
 */
export const PRICED_MODEL = {
  id: 'llama-priced',
  displayName: 'Llama (priced test)',
  pricing: { inputPerMillionTokens: 1000, outputPerMillionTokens: 1000, perImage: null },
};

/**
 * A MODELS_FILE with `llama-test` on the fake server's OpenAI-compatible route; with `unconfigured`, also a provider
 * whose key variable is unset (`keyless-model`), so its models are listed but cannot be called; with `priced`, also
 * PRICED_MODEL on the same route. `remove()` deletes it.
 */
export function localModelsFile(
  fake: FakeLlmServer,
  options: { unconfigured?: boolean; priced?: boolean } = {},
): { file: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-models-'));
  const file = path.join(dir, 'models.json');
  const models: object[] = [{ id: 'llama-test', displayName: 'Llama (test)' }];
  if (options.priced) models.push(PRICED_MODEL);
  const providers: object[] = [{ name: 'local', baseUrl: `${fake.url}/local/v1`, models }];
  if (options.unconfigured) {
    providers.push({
      name: 'keyless',
      baseUrl: `${fake.url}/keyless/v1`,
      apiKeyEnv: 'PROMPTGATE_TEST_UNSET_KEY',
      models: [{ id: 'keyless-model' }],
    });
  }
  fs.writeFileSync(file, JSON.stringify({ providers }));
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The environment that points the OpenAI, Anthropic and Google adapters at the fake server, with test keys. */
export function fakeProviderEnv(fake: FakeLlmServer): Record<string, string> {
  return {
    OPENAI_API_KEY: 'sk-test-openai',
    OPENAI_BASE_URL: `${fake.url}/v1`,
    ANTHROPIC_API_KEY: 'sk-test-anthropic',
    ANTHROPIC_BASE_URL: `${fake.url}/v1`,
    GOOGLE_GENERATIVE_AI_API_KEY: 'test-google',
    GOOGLE_BASE_URL: `${fake.url}/v1beta`,
  };
}

/** The token usage of an OpenAI Responses answer. */
function responsesUsage(input: number, output: number): object {
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}
