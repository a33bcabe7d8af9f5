import { applyDecorators, Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiResponse,
  getSchemaPath,
  type HeaderObject,
  type ReferenceObject,
  type SchemaObject,
} from '@nestjs/swagger';

/** The one schema of every admin refusal, referenced by each failure response (components.schemas). */
export const FAILURE_ENVELOPE = 'FailureEnvelope';

export const FAILURE_ENVELOPE_SCHEMA: SchemaObject = {
  type: 'object',
  description: 'An admin refusal: `succeeded` false, one message per problem, and no data.',
  required: ['succeeded', 'messages', 'data'],
  properties: {
    succeeded: { type: 'boolean', enum: [false] },
    messages: {
      type: 'array',
      items: { type: 'string' },
      minItems: 1,
      description: 'One message per problem, each naming its field when it has one.',
    },
    data: { type: 'object', nullable: true, enum: [null], description: 'Always null.' },
  },
};

/** Response headers the admin API sends, described once (components.headers) and referenced by each response. */
export const RESPONSE_HEADERS: Record<string, HeaderObject> = {
  RequestId: {
    description:
      "The request's id: the caller's X-Request-Id when it is 1 to 128 letters, digits or `._:-`, a new UUID otherwise. " +
      'Sent on every response; execution logs record it.',
    schema: { type: 'string' },
  },
  RateLimitLimit: {
    description: 'Requests the key may make in its rate-limit window that has the fewest left (admin: per minute).',
    schema: { type: 'integer', minimum: 1 },
  },
  RateLimitRemaining: { description: 'Requests left in that window.', schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: {
    description: 'When that window starts again, in Unix time (seconds).',
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
};

const header = (name: keyof typeof RESPONSE_HEADERS): ReferenceObject => ({ $ref: `#/components/headers/${name}` });

/** The headers of every response. */
export const REQUEST_ID_HEADER = { 'X-Request-Id': header('RequestId') };

/** The headers of an answer of a rate-limited route. */
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': header('RateLimitLimit'),
  'X-RateLimit-Remaining': header('RateLimitRemaining'),
  'X-RateLimit-Reset': header('RateLimitReset'),
};

/** Statuses some admin routes answer and others do not; each route names those it can answer. */
export type FailureStatus = 400 | 404 | 409 | 413 | 422 | 502 | 504;

const USUAL_MEANING: Record<FailureStatus, string> = {
  400: 'The request failed validation: one message per problem, naming its field (unknown properties included)',
  404: 'No such resource in this tenant',
  409: 'The change conflicts with the current state',
  413: 'The request body is larger than the admin body limit (MAX_ADMIN_BODY_BYTES)',
  422: "The prompt cannot run: its template fails or exceeds the render limits, or its settings are out of the model's bounds",
  502: "The model's provider failed or is not configured, or the model answered what the output fields do not accept",
  504: "The model did not answer within the endpoint's timeout",
};

export interface EnvelopeOptions {
  /** The success status; 200 by default. */
  status?: 200 | 201 | 202;
  /** Headers of the success answer besides X-Request-Id and the X-RateLimit-* trio (a paged list's Link). */
  headers?: Record<string, HeaderObject | ReferenceObject>;
  /** The route changes data, so a ReadOnly admin key is refused (403). */
  write?: boolean;
  /**
   * The failures this route can answer besides those of every admin route (401, 403, 429, 503): each with what it
   * means on this route, or `true` for its usual meaning. A route that can answer 429 or 503 for more reasons than
   * every admin route describes them in full here.
   */
  failures?: Partial<Record<FailureStatus, string | true>> & Partial<Record<429 | 503, string>>;
  /**
   * The success answer is an event stream (`text/event-stream`) rather than the envelope: what its events are. The
   * failures are envelopes as on every admin route.
   */
  eventStream?: string;
}

/**
 * Documents an admin route's answers: the success envelope with its typed `data` (a model, a list of one, or null),
 * and each refusal the route can answer, all in the one FailureEnvelope, so a generated client is typed end to end.
 * Every admin route can answer 401 (no valid key), 403 (an endpoint key; a ReadOnly key too on writes), 429 (the key's
 * admin rate limit) and 503 (the database is unavailable).
 */
export function ApiEnvelope(model: Type<unknown> | [Type<unknown>] | null, options: EnvelopeOptions = {}) {
  const item = Array.isArray(model) ? model[0] : model;
  const data: SchemaObject | ReferenceObject =
    item === null
      ? // Always null. Declared as any value, not as `null`: openapi-fetch's types drop a property whose type is null.
        { description: 'Always null.', example: null }
      : Array.isArray(model)
        ? { type: 'array', items: { $ref: getSchemaPath(item) } }
        : { $ref: getSchemaPath(item) };
  const failures: Partial<Record<number, string>> = {
    401: 'No key, an invalid or revoked key, or the key of another tenant on a tenant host',
    403: options.write
      ? 'An endpoint key (the admin API takes admin keys), or a ReadOnly admin key (this route changes data)'
      : 'An endpoint key: the admin API takes admin keys',
    429: "The key's admin rate limit is used up: retry after Retry-After seconds",
    503: 'The database is unavailable: retry after Retry-After seconds',
  };
  for (const [status, meaning] of Object.entries(options.failures ?? {}) as [`${number}`, string | true][]) {
    failures[Number(status)] = meaning === true ? USUAL_MEANING[Number(status) as FailureStatus] : meaning;
  }
  const headers = { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS, ...options.headers };
  const decorators = [
    options.eventStream === undefined
      ? ApiResponse({
          status: options.status ?? 200,
          description: 'Succeeded',
          headers,
          schema: {
            type: 'object',
            required: ['succeeded', 'messages', 'data'],
            properties: {
              succeeded: { type: 'boolean', enum: [true] },
              messages: { type: 'array', items: { type: 'string' } },
              data,
            },
          },
        })
      : ApiResponse({
          status: options.status ?? 200,
          description: options.eventStream,
          headers,
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        }),
    ...Object.entries(failures).map(([status, description]) =>
      ApiResponse({
        status: Number(status),
        description: description!,
        headers: {
          ...REQUEST_ID_HEADER,
          ...(status === '429' && { ...RATE_LIMIT_HEADERS, 'Retry-After': header('RetryAfter') }),
          ...(status === '503' && { 'Retry-After': header('RetryAfter') }),
        },
        schema: { $ref: getSchemaPath(FAILURE_ENVELOPE) },
      }),
    ),
  ];
  if (item) decorators.unshift(ApiExtraModels(item));
  return applyDecorators(...decorators);
}
