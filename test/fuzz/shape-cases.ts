import fc from 'fast-check';
import { createParser } from 'eventsource-parser';
import type { FakeStreamShape } from '../support/fake-llm-server';
import { Repeat } from './json-text';
import type { RawResponse } from './raw-http';

/** The most input fields, and the most output fields, an endpoint may have. */
export const FIELD_LIMIT = 100;

const INPUT_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array'] as const;
const OUTPUT_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array'] as const;

/** Fields added one after another to a fresh endpoint, of one kind, up to and past FIELD_LIMIT. */
export interface FieldCountCase {
  kind: 'input' | 'output';
  dataTypes: string[];
}

export const fieldCountCase: fc.Arbitrary<FieldCountCase> = fc.oneof(
  fc.record({
    kind: fc.constant<'input' | 'output'>('input'),
    dataTypes: fieldTypes(INPUT_TYPES),
  }),
  fc.record({
    kind: fc.constant<'input' | 'output'>('output'),
    dataTypes: fieldTypes(OUTPUT_TYPES),
  }),
);

/** Mostly just around the limit (its last field and the first one past it), sometimes well past it. */
function fieldTypes(types: readonly string[]): fc.Arbitrary<string[]> {
  const count = fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: FIELD_LIMIT - 1, max: FIELD_LIMIT + 3 }) },
    { weight: 1, arbitrary: fc.integer({ min: FIELD_LIMIT + 4, max: FIELD_LIMIT + 20 }) },
  );
  return count.chain((length) => fc.array(fc.constantFrom(...types), { minLength: length, maxLength: length }));
}

/** A value of an input field's type, for an execution with every field given. */
export function inputValue(dataType: string, index: number): unknown {
  switch (dataType) {
    case 'string':
      return `value ${index}`;
    case 'integer':
      return index;
    case 'number':
      return index + 0.5;
    case 'boolean':
      return index % 2 === 0;
    case 'object':
      return { index };
    default:
      return [index];
  }
}

/** The models streamed through, one per wire format of the fake provider. */
export const STREAM_MODELS = ['gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'llama-test'] as const;

/**
 * A streamed answer in many small pieces, its wire bytes cut at arbitrary places: `deep` streams have up to 12,000
 * pieces of one or two characters, in slices of some hundreds of bytes (a slice boundary inside nearly every event);
 * `fine` ones have fewer pieces and slices of a few bytes (inside JSON strings and UTF-8 characters). A structured
 * answer (`structured`) is `{"answer": text}`, whole or cut short (`truncated`: an answer that is not the object).
 */
export interface StreamCase {
  model: (typeof STREAM_MODELS)[number];
  structured: boolean;
  truncated: boolean;
  text: string;
  shape: FakeStreamShape;
}

const character = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz ') },
  { weight: 1, arbitrary: fc.constantFrom('é', '€', 'ß', '中', '😀', '👩‍💻', '"', '\\', '\n', '\t', '{', '}', ':', ',') },
);

const streamText = (minLength: number, maxLength: number) =>
  fc
    .array(character, { minLength, maxLength, size: 'max' })
    // A letter first: the raw answer is never JSON text, so it comes back as the same string.
    .map((characters) => `t${characters.join('')}`);

const deepShape = fc.record({
  pieceLengths: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 2_000, maxLength: 12_000, size: 'max' }),
  wireSlices: fc.array(fc.integer({ min: 64, max: 4_096 }), { minLength: 1, maxLength: 8 }),
});

const fineShape = fc.record({
  pieceLengths: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 200, size: 'max' }),
  wireSlices: fc.array(fc.integer({ min: 1, max: 24 }), { minLength: 1, maxLength: 8 }),
});

export const streamCase: fc.Arbitrary<StreamCase> = fc.oneof(
  fc.record({
    model: fc.constantFrom(...STREAM_MODELS),
    structured: fc.boolean(),
    truncated: fc.boolean(),
    text: streamText(4_000, 24_000),
    shape: deepShape,
  }),
  fc.record({
    model: fc.constantFrom(...STREAM_MODELS),
    structured: fc.boolean(),
    truncated: fc.boolean(),
    text: streamText(0, 600),
    shape: fineShape,
  }),
);

/** What the fake provider sends for a case: the raw text, or the structured object's JSON text (maybe cut short). */
export function providerText(fuzzCase: StreamCase): string {
  if (!fuzzCase.structured) return fuzzCase.text;
  const json = JSON.stringify({ answer: fuzzCase.text });
  return fuzzCase.truncated ? json.slice(0, Math.max(1, Math.floor(json.length / 2))) : json;
}

/** The events of an event-stream body: name and parsed data. */
export function eventsOf(response: RawResponse): { event: string; data: unknown }[] {
  const events: { event: string; data: unknown }[] = [];
  const parser = createParser({
    onEvent: (message) => {
      let data: unknown = message.data;
      try {
        data = JSON.parse(message.data);
      } catch {
        // kept as text; the check says so
      }
      events.push({ event: message.event ?? 'message', data });
    },
  });
  parser.feed(response.text);
  return events;
}

/**
 * Why a streamed answer is wrong, or undefined: it opens with `start`, ends with one `done` or `error` (nothing after
 * it), and when the provider sent a whole answer, `done` carries exactly it (the deltas, joined, being the raw text).
 */
export function streamProblem(fuzzCase: StreamCase, response: RawResponse): string | undefined {
  if (response.status !== 200) return `status ${response.status}, not a stream`;
  if (!String(response.headers['content-type']).startsWith('text/event-stream'))
    return `content type ${String(response.headers['content-type'])}`;
  const events = eventsOf(response);
  const names = events.map((each) => each.event);
  if (names[0] !== 'start') return `the first event is ${names[0]}`;
  const endings = names.filter((name) => name === 'done' || name === 'error');
  if (endings.length !== 1 || !['done', 'error'].includes(names[names.length - 1]))
    return `the stream ends with ${names.slice(-3).join(', ')} (${endings.length} endings)`;
  const last = events[events.length - 1];
  if (fuzzCase.structured && fuzzCase.truncated) return undefined;
  if (last.event !== 'done') return `a whole answer ended with ${JSON.stringify(last.data).slice(0, 300)}`;
  const output = (last.data as { output?: unknown }).output;
  if (fuzzCase.structured) {
    const answer = (output as { answer?: unknown } | undefined)?.answer;
    return answer === fuzzCase.text ? undefined : `done carries ${JSON.stringify(output).slice(0, 300)}`;
  }
  const joined = events
    .filter((each) => each.event === 'delta')
    .map((each) => (each.data as { text: string }).text)
    .join('');
  if (joined !== fuzzCase.text) return `the deltas join to ${JSON.stringify(joined.slice(0, 300))}`;
  return output === fuzzCase.text ? undefined : `done carries ${JSON.stringify(output).slice(0, 300)}`;
}

/** Routes that take no body (or no body without a key), each answered at once whatever is sent after the head. */
export const BODILESS_TARGETS = [
  ['GET', '/health'],
  ['GET', '/health/ready'],
  ['POST', '/health'],
  ['GET', '/metrics'],
  ['PUT', '/metrics'],
  ['GET', '/docs'],
  ['GET', '/docs-json'],
  ['GET', '/dashboard/x'],
  ['GET', '/dashboard/'],
  ['GET', '/'],
  ['POST', '/nonexist'],
  ['DELETE', '/nonexist/deeper'],
  ['PATCH', '/nonexist'],
  ['OPTIONS', '/health'],
  ['GET', '/api/v1/nonexist'],
  ['POST', '/admin/v1/endpoints'],
  ['GET', '/admin/v1/session'],
] as const;

/**
 * A request with no key to a route of BODILESS_TARGETS carrying a body: sent whole (`sent` bytes, up to a few MB),
 * or promised by Content-Length and only partly sent (the client then waits for the answer), or chunked.
 */
export interface BodilessCase {
  target: (typeof BODILESS_TARGETS)[number];
  framing: 'whole' | 'promised' | 'chunked';
  /** Bytes of body actually sent. */
  sent: number;
  /** Bytes Content-Length announces (`promised`: more than `sent`). */
  announced: number;
  contentType: string;
}

export const bodilessCase: fc.Arbitrary<BodilessCase> = fc
  .record({
    target: fc.constantFrom(...BODILESS_TARGETS),
    framing: fc.constantFrom<BodilessCase['framing']>('whole', 'promised', 'chunked'),
    sent: fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 0, max: 4_096 }) },
      { weight: 1, arbitrary: fc.integer({ min: 4_097, max: 3 * 1024 * 1024 }) },
    ),
    extra: fc.oneof(fc.integer({ min: 1, max: 1_000 }), fc.constantFrom(9_000_000, 2 ** 31, 10 ** 12)),
    contentType: fc.constantFrom('application/json', 'text/plain', 'application/octet-stream', 'multipart/form-data'),
  })
  .map(({ extra, ...rest }) => ({
    ...rest,
    announced: rest.framing === 'promised' ? rest.sent + extra : rest.sent,
  }));

/** The bytes of a case's request; a body is `x` repeated (printed as its recipe by Repeat). */
export function bodilessBytes(fuzzCase: BodilessCase): string {
  const [method, path] = fuzzCase.target;
  const body = new Repeat('x', fuzzCase.sent).value;
  const head = `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${fuzzCase.contentType}\r\n`;
  if (fuzzCase.framing === 'chunked') {
    const chunks = body.length > 0 ? `${body.length.toString(16)}\r\n${body}\r\n` : '';
    return `${head}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunks}0\r\n\r\n`;
  }
  return `${head}Content-Length: ${fuzzCase.announced}\r\nConnection: close\r\n\r\n${body}`;
}
