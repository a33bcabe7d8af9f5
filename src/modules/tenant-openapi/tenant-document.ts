import { MAX_TAG_VALUE_LENGTH, MAX_TAGS, MAX_TAGS_HEADER_BYTES, TAGS_HEADER } from '../../common/tags/tags';
import { createHash } from 'node:crypto';
import type { EndpointDefinition } from '../endpoints/endpoint-definition';
import { inputSchemaOf } from '../execution/input-validation';
import { IMAGE_BODY_SCHEMA, imageOutputField, outputSchemaOf } from '../execution/output-schema';
import type { JsonSchemaObject } from '../llm/llm-client';
import { sampleInputsOf } from './sample-inputs';
import { EXECUTION_ERROR_CODES, executionErrorMeaning } from '../../common/errors/execution-error-codes';

/** An OpenAPI 3.1 document, as plain JSON. */
export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, { post: OpenApiOperation }>;
  components: Record<string, Record<string, unknown>>;
};

export type OpenApiOperation = Record<string, unknown> & {
  operationId: string;
  requestBody: {
    required: boolean;
    content: { 'application/json': { schema: JsonSchemaObject; example: Record<string, unknown> } };
  };
  responses: Record<string, unknown>;
};

export interface TenantDocumentOptions {
  tenantSlug: string;
  /** The tenant's base URL, the document's one server: `http://acme.localhost:3000`. */
  serverUrl: string;
  /** The endpoints the document describes (those the key may call). */
  definitions: readonly EndpointDefinition[];
  /** MAX_IMAGE_BYTES, stated in the description of image inputs. */
  maxImageBytes: number;
}

/** The name of the API key security scheme (Swagger UI's Authorize dialog shows it). */
export const API_KEY_SCHEME = 'apiKey';
const ERROR_SCHEMA = 'ExecutionError';
/** Statuses whose answers carry Retry-After. */
const RETRY_LATER_STATUSES = [429, 503];

/** Every status an execution can answer besides 200, with the `error` codes it carries and what each means. */
const ERROR_RESPONSES: [status: string, description: string][] = errorStatuses();

function errorStatuses(): [status: string, description: string][] {
  const byStatus = new Map<number, string[]>();
  for (const code of EXECUTION_ERROR_CODES) {
    const { status, when } = executionErrorMeaning(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), `\`${code}\`: ${when}`]);
  }
  return [...byStatus].map(([status, meanings]) => [
    String(status),
    `${meanings.join('; ')}.${RETRY_LATER_STATUSES.includes(status) ? ' Retry after `Retry-After` seconds.' : ''}`,
  ]);
}

const HEADERS: Record<string, { description: string; schema: JsonSchemaObject }> = {
  'X-Request-Id': { description: "The request's id (in the execution logs too).", schema: { type: 'string' } },
  'X-RateLimit-Limit': {
    description: 'The limit of the rate-limit window with the fewest requests left.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in that window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When that window resets (Unix time, seconds).', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  'X-Cache': {
    description: '`HIT` (answered from the cache), `MISS` (looked up, not found) or `BYPASS` (not read).',
    schema: { type: 'string', enum: ['HIT', 'MISS', 'BYPASS'] },
  },
  'X-Prompt': {
    description:
      "The prompt version that ran, `<slug>@<version>` (the default, the `?prompt=` one or the split's pick).",
    schema: { type: 'string' },
  },
  'X-Model': {
    description: 'The model that answered (on an error, the model of the last attempt). Not on event streams.',
    schema: { type: 'string' },
  },
  'X-Attempts': {
    description: 'How many model calls were made (retries and fallback models included; 0 from the cache).',
    schema: { type: 'integer' },
  },
};

/** Headers of an answer that ran a prompt version, and of one whose model was called. */
const PROMPT_HEADERS = ['X-Prompt'];
const MODEL_HEADERS = ['X-Model', 'X-Attempts'];
/** Errors that come after the prompt was selected (422), or after its model was called (502, 504). */
const AFTER_PROMPT = ['422', '502', '504'];
const AFTER_MODEL = ['502', '504'];
const refs = (names: string[]) => Object.fromEntries(names.map((name) => [name, headerRef(name)]));

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
/** Refusals decided before the rate limits count the request (key, access, body size, database): no X-RateLimit-*. */
const BEFORE_RATE_LIMITS = ['401', '403', '413', '503'];
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/**
 * The OpenAPI 3.1 document of a tenant's endpoints: one `POST` operation per endpoint, its request body from the
 * input fields, its 200 answer from the output fields, the shared error schema on every other status the execution
 * API answers, and the `x-api-key` scheme. The same definitions always give the same document (`info.version` is
 * the start of its hash), so its hash is a strong validator.
 */
export function buildTenantDocument(options: TenantDocumentOptions): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  // The scores route's id is taken first, so an endpoint whose path gives the same id gets a numbered one.
  const operationIds = new Set<string>([SCORE_OPERATION_ID]);
  const sorted = [...options.definitions].sort((a, b) => (a.endpoint.path < b.endpoint.path ? -1 : 1));
  for (const definition of sorted) {
    const operationId = uniqueOperationId(operationIdOf(definition.endpoint.path), operationIds);
    paths[definition.endpoint.path] = { post: operationOf(definition, operationId, options) };
  }
  paths[SCORES_PATH] = { post: scoreOperation() };
  const schemas: Record<string, unknown> = {
    [ERROR_SCHEMA]: ERROR_BODY_SCHEMA,
    ...STREAM_EVENT_SCHEMAS,
    ...SCORE_SCHEMAS,
  };
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: `Promptgate endpoints of ${options.tenantSlug}`,
      version: '',
      description:
        'The endpoints this API key may call, one operation each, and `POST /api/v1/_scores` to score an execution. ' +
        'Authenticate with the key in the `x-api-key` header. Every answer is JSON and carries an `X-Request-Id`; ' +
        'errors are `{error, message, field?}`.',
    },
    servers: [{ url: options.serverUrl, description: `The ${options.tenantSlug} tenant` }],
    security: [{ [API_KEY_SCHEME]: [] }],
    paths,
    components: {
      securitySchemes: {
        [API_KEY_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'An endpoint key (`ep_live_…`, `ep_test_…`) or an admin key (`epa_…`) of the tenant.',
        },
      },
      schemas,
      headers: HEADERS,
    },
  };
  (document.info as { version: string }).version = documentHash(document).slice(0, 12);
  return document;
}

/** A strong validator of a document: the SHA-256 of its JSON, hex. */
export function documentHash(document: unknown): string {
  return createHash('sha256').update(JSON.stringify(document)).digest('hex');
}

/** `/api/v1/summarize-text` → `summarizeText`; `/api/v1/2fa/check` → `call2faCheck` (identifiers start with a letter). */
export function operationIdOf(path: string): string {
  const words = path
    .replace(/^\/+api\/+v1\/*/i, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
  const camel = words.map((word, i) => (i === 0 ? word : word[0].toUpperCase() + word.slice(1))).join('');
  if (camel === '') return 'call';
  return /^[0-9]/.test(camel) ? `call${camel}` : camel;
}

/** The id itself when free, else the id with the first free number from 2 (`summarize2`). */
function uniqueOperationId(id: string, taken: Set<string>): string {
  let candidate = id;
  for (let n = 2; taken.has(candidate); n++) candidate = `${id}${n}`;
  taken.add(candidate);
  return candidate;
}

function operationOf(
  definition: EndpointDefinition,
  operationId: string,
  options: TenantDocumentOptions,
): OpenApiOperation {
  const { endpoint, inputFields, outputFields } = definition;
  const description = endpoint.description.trim();
  const textEndpoint = !imageOutputField(outputFields);
  const success = {
    description: successDescription(definition),
    headers: {
      'X-Request-Id': headerRef('X-Request-Id'),
      ...refs(RATE_LIMIT_HEADERS),
      'X-Cache': headerRef('X-Cache'),
      ...refs(PROMPT_HEADERS),
      ...refs(MODEL_HEADERS),
    },
    content: {
      'application/json': { schema: anyObjectsOpen(successSchemaOf(definition)) },
      ...(textEndpoint ? eventStreamContent() : {}),
    },
  };
  return {
    operationId,
    summary: endpoint.name,
    ...(description ? { description } : {}),
    parameters: [
      {
        name: 'prompt',
        in: 'query',
        required: false,
        description: 'Runs this Live prompt of the endpoint (its name or slug) instead of the default one.',
        schema: { type: 'string' },
      },
      ...(textEndpoint ? [STREAM_PARAMETER] : []),
      {
        name: 'x-cache-bypass',
        in: 'header',
        required: false,
        description: '`true` skips the cache lookup; the fresh answer replaces the cached one.',
        schema: { type: 'string', enum: ['true', 'false'] },
      },
      TAGS_PARAMETER,
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: anyObjectsOpen(inputSchemaOf(inputFields, options.maxImageBytes)),
          example: sampleInputsOf(inputFields),
        },
      },
    },
    responses: { '200': success, ...errorResponses(ERROR_RESPONSES, executionErrorHeaders) },
  };
}

/** X-Tags: labels of the execution's log row, filterable and grouped in the logs and statistics. */
const TAGS_PARAMETER = {
  name: TAGS_HEADER,
  in: 'header',
  required: false,
  description:
    `Tags of this execution, \`key=value\` pairs separated by commas (\`team=search,env=prod\`), kept on its log row ` +
    `to filter and group the logs and statistics by. At most ${MAX_TAGS} tags and ${MAX_TAGS_HEADER_BYTES} bytes; a key ` +
    `is a lowercase letter followed by up to 39 of a-z, 0-9, \`_\`, \`.\` and \`-\`; a value has 1 to ${MAX_TAG_VALUE_LENGTH} ` +
    "characters, with `%`, `,` and `=` percent-encoded. The key's default tags are added; a tag given here wins. A bad " +
    'header is refused with 400 (field `X-Tags`) before the model is called.',
  schema: { type: 'string', maxLength: MAX_TAGS_HEADER_BYTES, example: 'team=search,env=prod' },
};

function successSchemaOf({ outputFields }: EndpointDefinition): JsonSchemaObject {
  if (imageOutputField(outputFields)) return IMAGE_BODY_SCHEMA;
  const structured = outputSchemaOf(outputFields);
  if (structured) return structured.jsonSchema;
  return {
    description:
      "The model's raw text: the JSON value it parses as when it is JSON, otherwise a JSON string holding the text.",
  };
}

function successDescription({ outputFields }: EndpointDefinition): string {
  if (imageOutputField(outputFields)) return 'The generated images.';
  if (outputFields.length > 0) return 'An object with exactly the output fields.';
  return "The model's answer.";
}

/** The prompt and model headers of an execution's error answers that come after the prompt or the model was chosen. */
function executionErrorHeaders(status: string): Record<string, unknown> {
  return {
    ...(AFTER_PROMPT.includes(status) ? refs(PROMPT_HEADERS) : {}),
    ...(AFTER_MODEL.includes(status) ? refs(MODEL_HEADERS) : {}),
  };
}

/**
 * The error answers of an operation, one per `[status, description]` row: each with its request id, the rate-limit
 * headers once the limits were counted, `Retry-After` where a retry is asked for, and the operation's own headers.
 */
function errorResponses(
  rows: [status: string, description: string][],
  ownHeaders: (status: string) => Record<string, unknown> = () => ({}),
): Record<string, unknown> {
  return Object.fromEntries(
    rows.map(([status, description]) => [
      status,
      {
        description,
        headers: {
          'X-Request-Id': headerRef('X-Request-Id'),
          ...(BEFORE_RATE_LIMITS.includes(status) ? {} : refs(RATE_LIMIT_HEADERS)),
          ...(RETRY_LATER_STATUSES.includes(Number(status)) ? { 'Retry-After': headerRef('Retry-After') } : {}),
          ...ownHeaders(status),
        },
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` } } },
      },
    ]),
  );
}

/** The body of every execution error. */
const ERROR_BODY_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    error: { type: 'string', description: 'The error code, such as `validation_error` or `rate_limit_exceeded`.' },
    message: { type: 'string', description: 'What went wrong, for people.' },
    field: {
      type: ['string', 'null'],
      description: 'On `validation_error`: the input field at fault, or null when the body is not a JSON object.',
    },
    retry_after: { type: 'integer', description: 'On 429 and 503: seconds to wait before retrying.' },
  },
  required: ['error', 'message'],
};

/**
 * A free-form `object` field is any JSON object (stated, so that generated types accept any properties rather than
 * none), at every level: the properties of nested objects and the items of arrays too.
 */
function anyObjectsOpen(schema: JsonSchemaObject): JsonSchemaObject {
  const properties = schema.properties as Record<string, JsonSchemaObject> | undefined;
  const items = schema.items as JsonSchemaObject | undefined;
  if (!properties) return items ? { ...schema, items: openObject(items) } : schema;
  const open = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, openObject(property)]));
  return { ...schema, properties: open };
}

function openObject(schema: JsonSchemaObject): JsonSchemaObject {
  return schema.type === 'object' && schema.properties === undefined
    ? { ...schema, additionalProperties: true }
    : anyObjectsOpen(schema);
}

const STREAM_PARAMETER = {
  name: 'stream',
  in: 'query',
  required: false,
  description: '`true` answers a `text/event-stream` (as `Accept: text/event-stream` does).',
  schema: { type: 'string', enum: ['true', 'false'] },
};

/** The events of a streamed answer: each is one `data:` line of JSON under its `event:` name. */
const STREAM_EVENT_SCHEMAS: Record<string, JsonSchemaObject> = {
  StreamStartEvent: {
    type: 'object',
    description: '`event: start`: the stream begins.',
    properties: {
      requestId: { type: 'string' },
      promptId: { type: 'string' },
      promptVersion: { type: 'integer' },
      llmModel: { type: 'string' },
      cached: { type: 'boolean' },
    },
    required: ['requestId', 'promptId', 'promptVersion', 'llmModel', 'cached'],
  },
  StreamDeltaEvent: {
    type: 'object',
    description: '`event: delta`: the next piece of the raw text (endpoints without output fields).',
    properties: { text: { type: 'string' } },
    required: ['text'],
  },
  StreamPartialEvent: {
    type: 'object',
    description: '`event: partial`: the object so far, not yet validated (endpoints with output fields).',
    properties: { output: { type: 'object', additionalProperties: true } },
    required: ['output'],
  },
  StreamDoneEvent: {
    type: 'object',
    description: '`event: done`: `output` is the body the same request answers without streaming.',
    properties: {
      output: {},
      usage: {
        type: 'object',
        properties: { inputTokens: { type: ['integer', 'null'] }, outputTokens: { type: ['integer', 'null'] } },
        required: ['inputTokens', 'outputTokens'],
      },
      costUsd: { type: ['number', 'null'] },
      finishReason: { type: ['string', 'null'] },
    },
    required: ['output', 'usage', 'costUsd', 'finishReason'],
  },
  StreamErrorEvent: {
    type: 'object',
    description: '`event: error`: the call failed (`timeout`, `upstream_error`, `prompt_error`); the stream ends.',
    properties: { error: { type: 'string' }, message: { type: 'string' } },
    required: ['error', 'message'],
  },
};

/** The `text/event-stream` answer of a text endpoint asked to stream. */
function eventStreamContent(): Record<string, unknown> {
  return {
    'text/event-stream': {
      schema: {
        type: 'string',
        description:
          'Server-sent events: `start`, then `delta` (raw text) or `partial` (structured) events, then `done` or ' +
          '`error`; each event is one `data:` line of JSON (see the Stream*Event schemas). `: ping` comments keep ' +
          'the connection alive.',
      },
    },
  };
}

/** The execution API's route that scores an execution; endpoint paths cannot start with `_`, so it is never an endpoint's. */
const SCORES_PATH = '/api/v1/_scores';
const SCORE_OPERATION_ID = 'recordScore';

const SCORE_VALUE_SCHEMA: JsonSchemaObject = {
  type: ['boolean', 'number', 'string'],
  description:
    'A boolean score: `true` or `false`; a numeric one: a number within its bounds; a categorical one: one of its categories.',
};

/** The body of `POST /api/v1/_scores` and its answer. */
const SCORE_SCHEMAS: Record<string, JsonSchemaObject> = {
  ScoreRequest: {
    type: 'object',
    properties: {
      requestId: {
        type: 'string',
        minLength: 1,
        maxLength: 128,
        description: "The execution's `X-Request-Id` (also in a stream's `start` event).",
      },
      name: { type: 'string', description: "The name of one of the tenant's score configs." },
      value: SCORE_VALUE_SCHEMA,
      comment: { type: ['string', 'null'], maxLength: 2000, description: 'Free text.' },
    },
    required: ['requestId', 'name', 'value'],
  },
  ScoreAnswer: {
    type: 'object',
    properties: {
      requestId: { type: 'string' },
      name: { type: 'string' },
      value: SCORE_VALUE_SCHEMA,
      comment: { type: ['string', 'null'] },
      source: { type: 'string', enum: ['api', 'annotation', 'eval'] },
      createdAt: {
        type: 'string',
        format: 'date-time',
        description: "When the execution's score of this name was first recorded.",
      },
    },
    required: ['requestId', 'name', 'value', 'comment', 'source', 'createdAt'],
  },
};

/** The statuses the scores route answers besides 200 and 201, each with the error code it carries. */
const SCORE_ERRORS: [status: string, description: string][] = [
  [
    '400',
    '`validation_error`: the body is not an object (`field` null), or `requestId`, `name` (no score config of that ' +
      "name), `value` (not of the config's type, out of its bounds or not one of its categories) or `comment` (over " +
      '2,000 characters) is wrong, as `field` says.',
  ],
  ['401', '`unauthorized`: no key, or not a valid key of this tenant.'],
  [
    '404',
    '`not_found`: no execution of the tenant has this request id, or an endpoint key other than the one that made it ' +
      'is asking (only that key and the admin keys may score it).',
  ],
  ['413', '`payload_too_large`: the body is too large.'],
  ['429', "`rate_limit_exceeded`: the key's per-minute score limit is reached. Retry after `Retry-After` seconds."],
  ['503', '`service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds.'],
];

function scoreOperation(): OpenApiOperation {
  const answer = (description: string) => ({
    description,
    headers: { 'X-Request-Id': headerRef('X-Request-Id'), ...refs(RATE_LIMIT_HEADERS) },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ScoreAnswer' } } },
  });
  return {
    operationId: SCORE_OPERATION_ID,
    summary: 'Score an execution',
    description:
      'Records a feedback score on an execution, by its request id, with the key that made it or an admin key. One ' +
      'value per execution and score name: the first answers 201, a later one replaces it and answers 200. Scores ' +
      "count against the key's own per-minute score limit, not its execution limits.",
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ScoreRequest' },
          example: { requestId: 'b6f7c1d2-0c1e-4c4f-9f3a-2d7e8a9b0c1d', name: 'helpful', value: true, comment: '' },
        },
      },
    },
    responses: {
      '200': answer('The score replaced an earlier one of the same name.'),
      '201': answer("The execution's first score of this name."),
      ...errorResponses(SCORE_ERRORS),
    },
  };
}
