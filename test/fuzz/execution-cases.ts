import fc from 'fast-check';
import { FAKE_PNG } from '../support/fake-llm-server';
import type { FuzzWorld } from './fuzz-world';
import { PNG_DATA_URI } from './fuzz-world';
import { applyMutation, bodyMutation, hostileString } from './hostile';
import { RawJson, Ref, Repeat, toJsonText, toText } from './json-text';
import type { SentRequest } from './raw-http';

/** An input field as the admin API creates it. */
export interface InputFieldSpec {
  name: string;
  dataType: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'image';
  isRequired?: boolean;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  defaultValue?: unknown;
}

/** One field of every input data type, bounded and unbounded. */
export const EVERY_INPUT_TYPE: InputFieldSpec[] = [
  { name: 'text', dataType: 'string', isRequired: true },
  { name: 'short', dataType: 'string', maxLength: 20 },
  { name: 'count', dataType: 'integer', minimum: -1000, maximum: 1000 },
  { name: 'big', dataType: 'integer' },
  { name: 'ratio', dataType: 'number', minimum: 0, maximum: 1 },
  { name: 'amount', dataType: 'number' },
  { name: 'flag', dataType: 'boolean', defaultValue: false },
  { name: 'meta', dataType: 'object' },
  { name: 'tags', dataType: 'array' },
  { name: 'photo', dataType: 'image' },
];

export const EVERY_INPUT_TEMPLATE =
  'T={{ inputs.text }} S={{ inputs.short }} C={{ inputs.count }} B={{ inputs.big }} R={{ inputs.ratio }} ' +
  'A={{ inputs.amount }} F={{ inputs.flag }} M={{ inputs.meta | json }} G={{ inputs.tags | json }}';

/** An endpoint the execution cases call, by the name of its `Ref`s (`<name>.path`, `<name>.alt` …). */
export interface FuzzedEndpoint {
  name: string;
  inputs: InputFieldSpec[];
}

/** A value the field accepts. */
function validFieldValue(field: InputFieldSpec): fc.Arbitrary<unknown> {
  switch (field.dataType) {
    case 'string':
      return fc.oneof(
        { weight: 4, arbitrary: fc.string({ maxLength: Math.min(field.maxLength ?? 60, 60) }) },
        { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: Math.min(field.maxLength ?? 20, 20) }) },
        { weight: 1, arbitrary: fc.constant(new Repeat('long text ', Math.floor((field.maxLength ?? 100_000) / 10))) },
      );
    case 'integer':
      return fc.integer({ min: field.minimum ?? -2147483648, max: field.maximum ?? 2147483647 });
    case 'number':
      return fc.double({
        min: field.minimum ?? -1e12,
        max: field.maximum ?? 1e12,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'object':
      return fc.object({ maxDepth: 2, maxKeys: 4 });
    case 'array':
      return fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 });
    case 'image':
      return fc.constantFrom(PNG_DATA_URI, `data:image/jpeg;base64,${FAKE_PNG}`, `data:image/webp;base64,${FAKE_PNG}`);
  }
}

function validInputs(fields: InputFieldSpec[]): fc.Arbitrary<Record<string, unknown>> {
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of fields) record[field.name] = validFieldValue(field);
  return fc.record(record, { requiredKeys: fields.filter((field) => field.isRequired).map((field) => field.name) });
}

export type ExecutionCaller = 'endpoint' | 'readWrite' | 'readOnly' | 'other' | 'bearer' | 'none';

export interface ExecutionCase {
  endpoint: string;
  who: ExecutionCaller;
  /** Appended to the endpoint's path: nothing, a slash, an encoded NUL, a dot segment. */
  pathSuffix: string;
  body: unknown;
  prompt?: unknown;
  cacheBypass?: string;
  extraQuery?: string;
}

const executionCaller: fc.Arbitrary<ExecutionCaller> = fc.oneof(
  { weight: 10, arbitrary: fc.constant<ExecutionCaller>('endpoint') },
  { weight: 2, arbitrary: fc.constant<ExecutionCaller>('readWrite') },
  { weight: 1, arbitrary: fc.constant<ExecutionCaller>('readOnly') },
  { weight: 1, arbitrary: fc.constant<ExecutionCaller>('other') },
  { weight: 1, arbitrary: fc.constant<ExecutionCaller>('bearer') },
  { weight: 1, arbitrary: fc.constant<ExecutionCaller>('none') },
);

export function executionCase(endpoints: FuzzedEndpoint[]): fc.Arbitrary<ExecutionCase> {
  return fc.constantFrom(...endpoints).chain((endpoint) =>
    fc.record(
      {
        endpoint: fc.constant(endpoint.name),
        who: executionCaller,
        pathSuffix: fc.oneof(
          { weight: 20, arbitrary: fc.constant('') },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              '/',
              '//',
              '%00',
              '/..%2f..%2fadmin%2fv1%2fkeys',
              '/.',
              '%2F',
              '/%F0%9F%98%80',
              'X',
              '?',
            ),
          },
        ),
        body: fc
          .tuple(validInputs(endpoint.inputs), bodyMutation(endpoint.inputs.map((field) => field.name)))
          .map(([valid, mutation]) => applyMutation(valid, mutation)),
        prompt: fc.oneof(
          fc.constantFrom(
            new Ref(`${endpoint.name}.alt`),
            new Ref(`${endpoint.name}.draft`),
            new Ref('other.prompt.slug'),
          ),
          // Kept under Node's 16 KB of request head; longer request lines have their own case in headers.fuzz-spec.ts.
          hostileString.map((value) =>
            value instanceof Repeat && value.count > 1_000 ? new Repeat(value.unit, 1_000) : value,
          ),
        ),
        cacheBypass: fc.constantFrom(
          'true',
          'TRUE',
          ' true ',
          'false',
          '1',
          'yes',
          '',
          'true, true',
          'x'.repeat(2_000),
          '\u00e9t\u00e9',
        ),
        extraQuery: fc.constantFrom(
          'stream=true',
          'prompt=a&prompt=b',
          'prompt[]=x',
          'prompt[a]=b',
          '__proto__[polluted]=yes',
          'constructor[prototype][polluted]=yes',
          'x=' + '%ZZ',
        ),
      },
      { requiredKeys: ['endpoint', 'who', 'pathSuffix', 'body'] },
    ),
  );
}

function executionHeaders(world: FuzzWorld, who: ExecutionCaller): Record<string, string> {
  switch (who) {
    case 'endpoint':
      return { 'x-api-key': world.tenant.endpoint };
    case 'readWrite':
      return { 'x-api-key': world.tenant.readWrite };
    case 'readOnly':
      return { 'x-api-key': world.tenant.readOnly };
    case 'other':
      return { 'x-api-key': world.other.endpoint };
    case 'bearer':
      return { authorization: `Bearer ${world.tenant.endpoint}` };
    case 'none':
      return {};
  }
}

export function executionRequest(world: FuzzWorld, fuzzCase: ExecutionCase): SentRequest {
  const query: string[] = [];
  if (fuzzCase.prompt !== undefined) query.push(`prompt=${encodeURIComponent(toText(fuzzCase.prompt, world.resolve))}`);
  if (fuzzCase.extraQuery !== undefined) query.push(fuzzCase.extraQuery);
  const path = world.resolve(new Ref(`${fuzzCase.endpoint}.path`)) + fuzzCase.pathSuffix;
  const headers: Record<string, string> = {
    ...executionHeaders(world, fuzzCase.who),
    'content-type': 'application/json',
  };
  if (fuzzCase.cacheBypass !== undefined) headers['x-cache-bypass'] = fuzzCase.cacheBypass;
  return {
    method: 'POST',
    target: query.length > 0 ? `${path}${path.includes('?') ? '&' : '?'}${query.join('&')}` : path,
    headers,
    body: fuzzCase.body instanceof RawJson ? fuzzCase.body.text : toJsonText(fuzzCase.body, world.resolve),
  };
}
