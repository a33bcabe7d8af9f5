import fc from 'fast-check';
import type { FuzzWorld } from './fuzz-world';
import {
  applyMutation,
  bodyMutation,
  hostileIdSegment,
  hostileQueryValue,
  hostileValue,
  hostileVersionSegment,
  malformedJson,
} from './hostile';
import { RawJson, Ref, Repeat, toJsonText, toText } from './json-text';
import type { OpenApiDocument, Operation } from './openapi-document';
import type { SentRequest } from './raw-http';
import { type Hints, validValue } from './schema-arbitrary';

/** Who sends a case: each kind of key of the tenant, the other tenant's admin, a Bearer token, or nobody. */
export type Caller = 'readWrite' | 'readOnly' | 'endpoint' | 'bearer' | 'other' | 'none';

export const caller: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Caller>('readWrite') },
  { weight: 3, arbitrary: fc.constant<Caller>('readOnly') },
  { weight: 2, arbitrary: fc.constant<Caller>('bearer') },
  { weight: 1, arbitrary: fc.constant<Caller>('endpoint') },
  { weight: 1, arbitrary: fc.constant<Caller>('other') },
  { weight: 1, arbitrary: fc.constant<Caller>('none') },
);

export function authHeaders(world: FuzzWorld, who: Caller): Record<string, string> {
  switch (who) {
    case 'readWrite':
      return { 'x-api-key': world.tenant.readWrite };
    case 'readOnly':
      return { 'x-api-key': world.tenant.readOnly };
    case 'endpoint':
      return { 'x-api-key': world.tenant.endpoint };
    case 'bearer':
      return { authorization: `Bearer ${world.tenant.readWrite}` };
    case 'other':
      return { 'x-api-key': world.other.readWrite };
    case 'none':
      return {};
  }
}

export interface AdminCase {
  who: Caller;
  params: Record<string, string | Ref | Repeat>;
  query: [string, unknown][];
  /** Absent: no body at all. */
  body?: unknown;
}

/** Rules of valid bodies that the document cannot state. */
export const ADMIN_HINTS: Hints = {
  'CreateEndpointDto.path': fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,11}$/).map((slug) => `/api/v1/fz-${slug}`),
  'UpdateEndpointDto.path': fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,11}$/).map((slug) => `/api/v1/fz-${slug}`),
  'CreateInputFieldDto.name': fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/),
  'UpdateInputFieldDto.name': fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/),
  'CreateOutputFieldDto.name': fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/),
  'UpdateOutputFieldDto.name': fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/),
  endpointId: fc.constant(new Ref('endpoint')),
  promptId: fc.constantFrom(new Ref('prompt'), new Ref('draftPrompt')),
  endpointIds: fc.option(fc.array(fc.constant(new Ref('endpoint')), { maxLength: 1 }), { nil: null }),
  llmModel: fc.constantFrom('mock-echo', 'mock-echo', 'gpt-4o-mini', 'gpt-image-1'),
  // An unsaved test run calls its model: only the offline one answers the fixtures' output fields (another provider's
  // answer off them is the upstream's failure, a 502 the service is right to give).
  'TestRunDto.llmModel': fc.constant('mock-echo'),
  template: fc.constantFrom(
    'Hello {{ inputs.text }}',
    'plain text',
    '{% if inputs.text %}{{ inputs.text | upcase }}{% endif %}',
    '{{ inputs | json }}',
  ),
  customParameters: fc.constantFrom({}, { seed: 7 }, { top_p: 0.5 }),
  exampleValue: fc.constantFrom(null, 'an example', '{"size":"1024x1024"}'),
  defaultValue: fc.constantFrom('text', 3, 1.5, true, {}, [], null),
  inputs: fc.record({ text: fc.string({ maxLength: 30 }) }),
  rateLimitPerMinute: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null }),
  rateLimitPerHour: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null }),
  rateLimitPerDay: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null }),
  maxLength: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: null }),
  minimum: fc.option(fc.integer({ min: -1000, max: 0 }), { nil: null }),
  maximum: fc.option(fc.integer({ min: 1, max: 1000 }), { nil: null }),
};

/** Which fixture a path parameter names, from the part of the path before it. */
function fixtureOf(operation: Operation, parameter: string): string {
  if (parameter === 'fieldId') return operation.path.includes('/input-fields/') ? 'inputField' : 'outputField';
  if (operation.path.startsWith('/admin/v1/keys')) return 'key';
  if (operation.path.startsWith('/admin/v1/prompts')) return 'prompt';
  if (operation.path.startsWith('/admin/v1/logs')) return 'log';
  return 'endpoint';
}

type Segment = fc.Arbitrary<string | Ref | Repeat>;

function pathParameter(operation: Operation, name: string): Segment {
  if (name === 'versionNumber') {
    return fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('1', '2') },
      { weight: 2, arbitrary: hostileVersionSegment },
    );
  }
  const fixture = fixtureOf(operation, name);
  const own =
    fixture === 'prompt' ? fc.constantFrom(new Ref('prompt'), new Ref('draftPrompt')) : fc.constant(new Ref(fixture));
  return fc.oneof(
    { weight: 6, arbitrary: own },
    { weight: 1, arbitrary: fc.constant(new Ref(`other.${fixture}`)) },
    { weight: 3, arbitrary: hostileIdSegment },
  );
}

function queryParameters(document: OpenApiDocument, operation: Operation): fc.Arbitrary<[string, unknown][]> {
  const documented = operation.parameters.filter((parameter) => parameter.in === 'query');
  const one = (name: string, valid: fc.Arbitrary<unknown>) =>
    fc.tuple(fc.constant(name), fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: hostileQueryValue }));
  const choices = documented.map((parameter) => {
    const valid = parameter.name.endsWith('Id')
      ? fc.constant(new Ref(parameter.name.replace(/Id$/, '')))
      : validValue(document, parameter.schema, {}).map((value) => (value === null ? '' : value));
    return one(parameter.name, valid);
  });
  const extra = fc.tuple(
    fc.constantFrom('page', 'pageSize', 'unknown', '__proto__', 'constructor', 'a[b]', 'a[]', ''),
    hostileQueryValue,
  );
  const pairs =
    choices.length > 0
      ? fc.oneof({ weight: 4, arbitrary: fc.oneof(...choices) }, { weight: 1, arbitrary: extra })
      : extra;
  return fc.array(pairs, { maxLength: choices.length > 0 ? 4 : 1 });
}

function requestBody(document: OpenApiDocument, operation: Operation): fc.Arbitrary<unknown> {
  if (!operation.body) {
    // Operations without a body still get one now and then: an empty object, a hostile value, broken JSON.
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: hostileValue },
      { weight: 1, arbitrary: malformedJson },
    );
  }
  const keys = Object.keys(operation.body.properties ?? {});
  return fc
    .tuple(validValue(document, operation.body, ADMIN_HINTS, operation.bodySchemaName), bodyMutation(keys))
    .map(([valid, mutation]) => applyMutation(valid, mutation));
}

export function adminCase(document: OpenApiDocument, operation: Operation): fc.Arbitrary<AdminCase> {
  const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const params: Record<string, fc.Arbitrary<string | Ref | Repeat>> = {};
  for (const name of names) params[name] = pathParameter(operation, name);
  return fc.record({
    who: caller,
    params: fc.record(params),
    query: queryParameters(document, operation),
    body: requestBody(document, operation),
  });
}

export function adminRequest(world: FuzzWorld, operation: Operation, fuzzCase: AdminCase): SentRequest {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => toText(fuzzCase.params[name], world.resolve));
  const query = fuzzCase.query.map(
    ([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(toText(value, world.resolve))}`,
  );
  const headers: Record<string, string> = authHeaders(world, fuzzCase.who);
  const hasBody = fuzzCase.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  return {
    method: operation.method.toUpperCase(),
    target: query.length > 0 ? `${path}?${query.join('&')}` : path,
    headers,
    body: hasBody
      ? fuzzCase.body instanceof RawJson
        ? fuzzCase.body.text
        : toJsonText(fuzzCase.body, world.resolve)
      : undefined,
  };
}
