import {
  INPUT_FIELD_DEFAULTS,
  OUTPUT_FIELD_DEFAULTS,
  type EndpointDefinition,
  type InputField,
  type OutputField,
} from '../endpoints/endpoint-definition';
import { buildTenantDocument, documentHash, operationIdOf } from './tenant-document';

let ids = 0;
const input = (name: string, dataType: InputField['dataType'], rules: Partial<InputField> = {}): InputField => ({
  id: `i${++ids}`,
  name,
  dataType,
  ...INPUT_FIELD_DEFAULTS,
  ...rules,
});
const output = (name: string, dataType: OutputField['dataType']): OutputField => ({
  id: `o${++ids}`,
  name,
  dataType,
  ...OUTPUT_FIELD_DEFAULTS,
});
const definition = (
  path: string,
  inputFields: InputField[] = [],
  outputFields: OutputField[] = [],
  description = '',
): EndpointDefinition => ({
  endpoint: {
    id: `e-${path}`,
    name: `Endpoint ${path}`,
    path,
    description,
    visibility: 'Public',
    cacheEnabled: false,
    cacheDurationSeconds: 300,
    rateLimitPerMinute: null,
    rateLimitPerHour: null,
    rateLimitPerDay: null,
    timeoutSeconds: 60,
    defaultPromptId: null,
    trafficSplit: null,
    promotionGate: null,
  },
  inputFields,
  outputFields,
});
const build = (definitions: EndpointDefinition[]) =>
  buildTenantDocument({
    tenantSlug: 'acme',
    serverUrl: 'http://acme.localhost:3000',
    definitions,
    maxImageBytes: 1024,
  });

describe('operationIdOf', () => {
  it('camel-cases the path after /api/v1/', () => {
    expect(operationIdOf('/api/v1/summarize')).toBe('summarize');
    expect(operationIdOf('/api/v1/summarize-text')).toBe('summarizeText');
    expect(operationIdOf('/api/v1/support/reply_draft')).toBe('supportReplyDraft');
  });

  it('starts with a letter', () => {
    expect(operationIdOf('/api/v1/2fa-check')).toBe('call2faCheck');
    expect(operationIdOf('/api/v1/')).toBe('call');
  });
});

describe('buildTenantDocument', () => {
  it('is OpenAPI 3.1 with the tenant as its server and the x-api-key scheme', () => {
    const document = build([]);
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'http://acme.localhost:3000', description: 'The acme tenant' }]);
    expect(document.security).toEqual([{ apiKey: [] }]);
    expect(document.components.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
    });
    // With no endpoint, the scores route alone.
    expect(Object.keys(document.paths)).toEqual(['/api/v1/_scores']);
  });

  it('gives each endpoint one POST operation, in path order, with unique operationIds', () => {
    const document = build([definition('/api/v1/a_b'), definition('/api/v1/a-b'), definition('/api/v1/a/b')]);
    expect(Object.keys(document.paths)).toEqual(['/api/v1/a-b', '/api/v1/a/b', '/api/v1/a_b', '/api/v1/_scores']);
    expect(Object.values(document.paths).map((item) => item.post.operationId)).toEqual([
      'aB',
      'aB2',
      'aB3',
      'recordScore',
    ]);
  });

  it('describes POST /api/v1/_scores: its body, 201 and 200 answers and errors; an endpoint never takes its id', () => {
    const document = build([definition('/api/v1/record-score')]);
    expect(document.paths['/api/v1/record-score'].post.operationId).toBe('recordScore2');
    const operation = document.paths['/api/v1/_scores'].post;
    expect(operation.operationId).toBe('recordScore');
    expect(operation.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ScoreRequest',
    });
    expect(Object.keys(operation.responses)).toEqual(['200', '201', '400', '401', '404', '413', '429', '503']);
    expect(document.components.schemas.ScoreRequest).toMatchObject({ required: ['requestId', 'name', 'value'] });
    expect(document.components.schemas.ScoreAnswer).toMatchObject({
      required: ['requestId', 'name', 'value', 'comment', 'source', 'createdAt'],
    });
  });

  it('takes the summary from the name and the description from the endpoint', () => {
    const operation = build([definition('/api/v1/x', [], [], 'Does x')]).paths['/api/v1/x'].post;
    expect(operation.summary).toBe('Endpoint /api/v1/x');
    expect(operation.description).toBe('Does x');
    expect(build([definition('/api/v1/x')]).paths['/api/v1/x'].post).not.toHaveProperty('description');
  });

  it('makes the body schema from the input fields: required unless defaulted, bounds, free-form objects open', () => {
    const fields = [
      input('text', 'string', { isRequired: true, maxLength: 10, description: 'Some text' }),
      input('count', 'integer', { isRequired: true, minimum: 1, maximum: 5, defaultValue: 2 }),
      input('meta', 'object'),
      input('picture', 'image', { isRequired: true }),
    ];
    const body = build([definition('/api/v1/x', fields)]).paths['/api/v1/x'].post.requestBody;
    expect(body.required).toBe(true);
    const { schema, example } = body.content['application/json'];
    expect(schema).toEqual({
      type: 'object',
      properties: {
        text: { type: 'string', maxLength: 10, description: 'Some text' },
        count: { type: 'integer', minimum: 1, maximum: 5, default: 2 },
        meta: { type: 'object', additionalProperties: true },
        picture: {
          type: 'string',
          pattern: '^data:(?:image/png|image/jpeg|image/webp|image/gif);base64,',
          description:
            'A PNG, JPEG, WebP or GIF image as a data URI (data:image/png;base64,...), at most 1024 bytes decoded.',
        },
      },
      required: ['text', 'picture'],
    });
    expect(example).toEqual({
      text: 'your text',
      count: 2,
      meta: {},
      picture: expect.stringMatching(/^data:image\/png/),
    });
  });

  it('answers the output fields, the images of an image endpoint, or any JSON value', () => {
    const document = build([
      definition('/api/v1/structured', [], [output('summary', 'string'), output('extra', 'object')]),
      definition('/api/v1/picture', [], [output('image', 'image')]),
      definition('/api/v1/raw'),
    ]);
    const schemaOf = (path: string) =>
      (document.paths[path].post.responses['200'] as { content: Record<string, { schema: unknown }> }).content[
        'application/json'
      ].schema;
    expect(schemaOf('/api/v1/structured')).toEqual({
      type: 'object',
      properties: { summary: { type: 'string' }, extra: { type: 'object', additionalProperties: true } },
      required: ['summary', 'extra'],
      additionalProperties: false,
    });
    expect(schemaOf('/api/v1/picture')).toEqual(expect.objectContaining({ required: ['generatedImages', 'usage'] }));
    expect(schemaOf('/api/v1/raw')).toEqual({ description: expect.any(String) });
  });

  it('shares one error schema across every error status, with Retry-After on 429 and 503 and the rate-limit headers once counted', () => {
    const responses = build([definition('/api/v1/x')]).paths['/api/v1/x'].post.responses as Record<string, any>;
    const statuses = Object.keys(responses).filter((status) => status !== '200');
    expect(statuses).toEqual(['400', '401', '403', '404', '409', '413', '422', '429', '502', '503', '504']);
    for (const status of statuses) {
      expect(responses[status].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/ExecutionError',
      });
      expect('Retry-After' in responses[status].headers).toBe(status === '429' || status === '503');
      // Refusals decided before the rate limits count the request carry no X-RateLimit-* headers.
      expect('X-RateLimit-Limit' in responses[status].headers).toBe(!['401', '403', '413', '503'].includes(status));
    }
  });

  it('describes the event stream of text endpoints, not of image endpoints', () => {
    const definitions = [definition('/api/v1/text'), definition('/api/v1/picture', [], [output('image', 'image')])];
    const contentOf = (path: string) =>
      Object.keys((build(definitions).paths[path].post.responses['200'] as any).content);
    expect(contentOf('/api/v1/text')).toEqual(['application/json', 'text/event-stream']);
    expect(contentOf('/api/v1/picture')).toEqual(['application/json']);
    const parameters = (path: string) =>
      (build(definitions).paths[path].post as any).parameters.map((parameter: { name: string }) => parameter.name);
    expect(parameters('/api/v1/text')).toContain('stream');
    expect(parameters('/api/v1/picture')).not.toContain('stream');
    expect(Object.keys(build(definitions).components.schemas)).toContain('StreamDoneEvent');
  });

  it('names the prompt and model headers where the execution API sends them', () => {
    const { responses } = build([definition('/api/v1/x')]).paths['/api/v1/x'].post as any;
    const headersOf = (status: string) => Object.keys(responses[status].headers);
    expect(headersOf('200')).toEqual(expect.arrayContaining(['X-Prompt', 'X-Model', 'X-Attempts', 'X-Cache']));
    expect(headersOf('502')).toEqual(expect.arrayContaining(['X-Prompt', 'X-Model', 'X-Attempts']));
    expect(headersOf('422')).toContain('X-Prompt');
    expect(headersOf('422')).not.toContain('X-Model');
    expect(headersOf('400')).not.toContain('X-Prompt');
  });

  it('is the same document for the same definitions, and another one when a definition changes', () => {
    const one = build([definition('/api/v1/x', [input('a', 'string')])]);
    const same = build([definition('/api/v1/x', [input('a', 'string')])]);
    const other = build([definition('/api/v1/x', [input('a', 'string', { maxLength: 3 })])]);
    expect(documentHash(same)).toBe(documentHash(one));
    expect(same.info).toEqual(one.info);
    expect(documentHash(other)).not.toBe(documentHash(one));
    expect((other.info as { version: string }).version).not.toBe((one.info as { version: string }).version);
  });
});
