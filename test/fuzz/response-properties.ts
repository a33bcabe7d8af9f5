import type { RawResponse, SentRequest } from './raw-http';

/**
 * What every answer must be, whatever was sent: never a 5xx; an X-Request-Id; on the admin surface the envelope
 * `{succeeded, messages, data}` (succeeded false exactly when the status is 400 or more, messages strings); elsewhere
 * errors are the flat `{error, message, field?}`; and no message shows the service's insides (SQL, driver and
 * network errors, stack frames, source paths, its own hosts and ports).
 */
export function checkResponse(request: SentRequest, response: RawResponse): void {
  const problems = responseProblems(request, response);
  if (problems.length > 0) {
    throw new Error(
      `${problems.join('; ')}\n  request:  ${describeRequest(request)}\n  response: ${describeResponse(response)}`,
    );
  }
}

/** Patterns of internal detail, each with what it stands for. */
const INTERNALS: [RegExp, string][] = [
  [/\bSELECT\b/, 'SQL'],
  [/\bINSERT\b/, 'SQL'],
  [/\bUPDATE\s+"?\w+"?\s+SET\b/, 'SQL'],
  [/\bDELETE FROM\b/i, 'SQL'],
  [/\brelation\b/, 'a database relation'],
  [/violates|duplicate key|syntax error at|invalid input syntax|out of range for type/i, 'a database error'],
  [/QueryFailedError|TypeORMError|EntityNotFound|PGlite/i, 'a database error'],
  [/\bdriver\b/i, 'the driver'],
  [/ECONN\w*|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|socket hang up/, 'a network error'],
  [/^\s+at /m, 'a stack frame'],
  [/node_modules/, 'a dependency path'],
  [/\/src\/|\/dist\/|\.ts:\d+|\.js:\d+/, 'a source path'],
  [/127\.0\.0\.1|\blocalhost:\d+|\[::1\]|0\.0\.0\.0/, 'a host of the service'],
  [
    /TypeError|ReferenceError|RangeError|Maximum call stack|Cannot read propert|is not a function|undefined is not/,
    'a JavaScript error',
  ],
];

export function responseProblems(request: SentRequest, response: RawResponse): string[] {
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`status ${response.status}`);
  if (!response.headers['x-request-id']) problems.push('no X-Request-Id header');
  const body = response.json as Record<string, unknown> | undefined;
  const isAdmin = surfaceOf(request.target) === 'admin';
  let messages: string[] = [];
  if (request.method === 'HEAD') {
    // Headers only.
  } else if (isAdmin) {
    if (!isPlainObject(body)) {
      problems.push('the admin answer is not a JSON object');
    } else {
      const keys = Object.keys(body).sort().join(',');
      if (keys !== 'data,messages,succeeded') problems.push(`the admin envelope has the keys ${keys}`);
      if (body.succeeded !== response.status < 400)
        problems.push(`succeeded is ${String(body.succeeded)} with status ${response.status}`);
      if (!Array.isArray(body.messages) || !body.messages.every((message) => typeof message === 'string')) {
        problems.push('messages is not an array of strings');
      } else {
        messages = body.messages;
        if (response.status >= 400 && messages.length === 0) problems.push('a failure without a message');
      }
      if (response.status >= 400 && body.data !== null) problems.push('a failure with data');
    }
  } else if (response.status >= 400) {
    if (!isPlainObject(body)) {
      problems.push('the error answer is not a JSON object');
    } else {
      if (typeof body.error !== 'string' || !/^[a-z][a-z_]*$/.test(body.error))
        problems.push(`error is ${JSON.stringify(body.error)}`);
      if (typeof body.message !== 'string' || body.message === '')
        problems.push(`message is ${JSON.stringify(body.message)}`);
      if ('field' in body && body.field !== null && typeof body.field !== 'string')
        problems.push(`field is ${JSON.stringify(body.field)}`);
      if ('succeeded' in body) problems.push('an execution error in the admin envelope');
      messages = typeof body.message === 'string' ? [body.message] : [];
    }
  }
  const sent = requestText(request);
  for (const message of messages) {
    for (const [pattern, what] of INTERNALS) {
      // A message may repeat what the caller sent (a path, a value): only what the request did not carry counts.
      if (pattern.test(message) && !pattern.test(sent))
        problems.push(`a message shows ${what}: ${JSON.stringify(message.slice(0, 300))}`);
    }
  }
  return problems;
}

export function surfaceOf(target: string): 'admin' | 'other' {
  const path = target.split('?')[0];
  return path === '/admin' || path.startsWith('/admin/') ? 'admin' : 'other';
}

function requestText(request: SentRequest): string {
  const headers = Object.values(request.headers).flat().join('\n');
  const body = request.body === undefined ? '' : request.body.toString();
  let decodedTarget = request.target;
  try {
    decodedTarget = decodeURIComponent(request.target);
  } catch {
    // kept as sent
  }
  return `${request.target}\n${decodedTarget}\n${headers}\n${body}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const clip = (text: string, length = 400) =>
  text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text;

export function describeRequest(request: SentRequest): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${clip(Array.isArray(value) ? value.join(' | ') : value, 120)}`)
    .join(', ');
  const body = request.body === undefined ? 'no body' : `body ${clip(JSON.stringify(request.body.toString()))}`;
  return `${request.method} ${clip(request.target, 300)} [${headers}] ${body}`;
}

export function describeResponse(response: RawResponse): string {
  return `${response.status} x-request-id=${String(response.headers['x-request-id'] ?? '(none)')} ${clip(response.text, 600)}`;
}
