import type { INestApplication } from '@nestjs/common';
import {
  type ContentObject,
  DocumentBuilder,
  type OpenAPIObject,
  type OperationObject,
  type ReferenceObject,
  type SchemaObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { FAILURE_ENVELOPE, FAILURE_ENVELOPE_SCHEMA, RESPONSE_HEADERS } from './common/http/api-envelope.decorator';
import { ANY_JSON } from './common/http/api-schema.decorators';

/** The operations' tags, in the order a reader meets them. */
const TAGS: [name: string, description: string][] = [
  [
    'endpoints',
    'Endpoints: an execution path (`POST /api/v1/<path>`) with its input and output fields, cache, rate limits and ' +
      'timeout. Soft delete and restore, permanent delete, and the test runner.',
  ],
  [
    'prompts',
    'Prompts of an endpoint: a Liquid template with a model and its settings, the Draft → Live → Archived lifecycle, the ' +
      "endpoint's default prompt, and every prompt's version history.",
  ],
  ['models', 'The model catalog: provider, availability, context window, prices and capabilities of each model.'],
  [
    'keys',
    'API keys: endpoint keys (`ep_live_`/`ep_test_`) execute endpoints, admin keys (`epa_`) also manage them. A new ' +
      "key's value is answered once. The session names the presented admin key and its tenant.",
  ],
  [
    'logs',
    'Execution logs: one row per execution with its inputs, rendered prompt, raw response, parsed output, tokens, cost, ' +
      'latency and feedback scores.',
  ],
  [
    'score-configs',
    'What executions may be scored on: each config names a score and its values (true/false, a number within bounds, ' +
      'or one of its categories).',
  ],
  [
    'stats',
    'Calls, errors by code, cache hits, latency percentiles, tokens and cost, per endpoint or for the tenant, over time.',
  ],
  [
    'budgets',
    'Spend budgets: a limit in dollars per UTC day or month on what a key, an endpoint, a tag or the whole tenant ' +
      'spends, each read with its current period: spent, reserved by calls in flight, and remaining.',
  ],
  [
    'datasets',
    'Datasets of an endpoint: test inputs with an expected output and tags, and the checks run on each output. Each ' +
      'change of the items is a new version of the dataset; an evaluation reads the items of the version it started on.',
  ],
  [
    'evaluations',
    "Evaluation runs: a dataset's items run with a candidate prompt version and a baseline, each answer checked, " +
      "compared item by item and summed up; the evidence an endpoint's promotion gate asks for.",
  ],
  ['health', 'Liveness and readiness probes. They need no key.'],
];

export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Promptgate')
    .setDescription(
      'Admin REST API of Promptgate. Every admin response is the envelope `{succeeded, messages, data}`: `data` on ' +
        'success, one message per problem on a refusal. Authenticate with an admin key (`epa_…`) in the x-api-key ' +
        'header or as a Bearer token; every response carries an X-Request-Id.',
    )
    .setVersion('1')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer('/', 'This service: the paths are relative to its origin.')
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
        description: 'An admin key (`epa_…`) in the x-api-key header.',
      },
      'api-key',
    )
    // Keys are opaque strings, not JWTs: the scheme names no bearer format.
    .addSecurity('bearer', {
      type: 'http',
      scheme: 'bearer',
      description: 'An admin key (`epa_…`) as a Bearer token: an opaque string.',
    });
  for (const [name, description] of TAGS) builder.addTag(name, description);
  const config = builder.build();
  config.components = {
    ...config.components,
    schemas: { [FAILURE_ENVELOPE]: FAILURE_ENVELOPE_SCHEMA },
    headers: RESPONSE_HEADERS,
  };
  const document = SwaggerModule.createDocument(app, config);
  normalizeSchemas(document);
  closeRequestBodies(document);
  return document;
}

/** Swagger UI at /docs and the document at /docs-json; both need no key. */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => createOpenApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}

type Schema = SchemaObject | ReferenceObject;

/**
 * Every schema of the document, rewritten where Nest's output says less than it should or says it awkwardly: a
 * property declared with ApiAnyJson becomes the empty schema (any JSON value), a combinator of the empty schema alone
 * is dropped, a lone `allOf` of one schema (how Nest refers to a named enum) becomes that schema, and a named enum
 * keeps no property's description.
 */
function normalizeSchemas(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  for (const [name, schema] of Object.entries(schemas)) {
    schemas[name] = normalized(schema);
    // Nest copies onto a named enum the description of the first property that refers to it; each property keeps its own.
    if ('enum' in schemas[name]) delete schemas[name].description;
  }
  for (const operation of operationsOf(document)) {
    for (const parameter of operation.parameters ?? []) {
      if ('schema' in parameter && parameter.schema) parameter.schema = normalized(parameter.schema);
    }
    const contents: (ContentObject | undefined)[] = [contentOf(operation.requestBody)];
    for (const response of Object.values(operation.responses ?? {})) contents.push(contentOf(response));
    for (const content of contents) {
      for (const media of Object.values(content ?? {})) if (media.schema) media.schema = normalized(media.schema);
    }
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function operationsOf(document: OpenAPIObject): OperationObject[] {
  return Object.values(document.paths).flatMap((pathItem) => METHODS.flatMap((method) => pathItem[method] ?? []));
}

function contentOf(body: { content?: ContentObject } | ReferenceObject | undefined): ContentObject | undefined {
  return body && 'content' in body ? body.content : undefined;
}

function normalized(schema: Schema): Schema {
  if ('$ref' in schema) return schema;
  const result: SchemaObject = { ...schema };
  if (result.format === ANY_JSON) {
    delete result.type;
    delete result.format;
  }
  if (result.properties)
    result.properties = Object.fromEntries(
      Object.entries(result.properties).map(([key, value]) => [key, normalized(value)]),
    );
  if (result.items) result.items = normalized(result.items);
  if (typeof result.additionalProperties === 'object')
    result.additionalProperties = normalized(result.additionalProperties);
  for (const combinator of ['allOf', 'oneOf', 'anyOf'] as const) {
    if (!result[combinator]) continue;
    result[combinator] = result[combinator].map(normalized);
    // A combinator of the empty schema alone allows every value, as its absence does.
    if (result[combinator].length === 1 && Object.keys(result[combinator][0]).length === 0) delete result[combinator];
  }
  const keys = Object.keys(result);
  if (keys.length === 1 && keys[0] === 'allOf' && result.allOf!.length === 1) return result.allOf![0];
  return result;
}

/**
 * The global validation pipe refuses unknown properties (whitelist with forbidNonWhitelisted) in every request body,
 * so each body's schema says so.
 */
function closeRequestBodies(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  for (const operation of operationsOf(document)) {
    const schema = contentOf(operation.requestBody)?.['application/json']?.schema;
    const target = schema && '$ref' in schema ? schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
    if (target && !('$ref' in target) && target.type === 'object') target.additionalProperties = false;
  }
}
