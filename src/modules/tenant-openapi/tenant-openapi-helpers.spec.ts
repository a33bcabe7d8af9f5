import { INPUT_FIELD_DEFAULTS, type InputField } from '../endpoints/endpoint-definition';
import { endpointSnippetsOf } from './endpoint-snippets';
import { etagMatches } from './http-caching';
import { SAMPLE_IMAGE, sampleInputsOf } from './sample-inputs';
import { tenantBaseUrl } from './tenant-base-url';

describe('tenantBaseUrl', () => {
  it("names the tenant's host on the base domain, with the port and scheme the caller used", () => {
    expect(tenantBaseUrl({ host: 'localhost:3000', forwardedProto: undefined }, 'acme', 'localhost')).toBe(
      'http://acme.localhost:3000',
    );
    expect(tenantBaseUrl({ host: 'acme.localhost:3000', forwardedProto: undefined }, 'acme', 'localhost')).toBe(
      'http://acme.localhost:3000',
    );
    expect(tenantBaseUrl({ host: 'api.example.com', forwardedProto: 'https' }, 'acme', 'Example.com.')).toBe(
      'https://acme.example.com',
    );
    expect(tenantBaseUrl({ host: '[::1]:8080', forwardedProto: 'HTTPS, http' }, 'acme', 'localhost')).toBe(
      'https://acme.localhost:8080',
    );
    expect(tenantBaseUrl({ host: undefined, forwardedProto: 'gopher' }, 'acme', 'localhost')).toBe(
      'http://acme.localhost',
    );
  });
});

describe('etagMatches', () => {
  it('matches the tag, a list holding it, a weak form of it, or *', () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('*', '"abc"')).toBe(true);
    expect(etagMatches('"abd"', '"abc"')).toBe(false);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
    expect(etagMatches('', '"abc"')).toBe(false);
  });
});

describe('sampleInputsOf', () => {
  const field = (name: string, dataType: InputField['dataType'], rules: Partial<InputField> = {}): InputField => ({
    id: name,
    name,
    dataType,
    ...INPUT_FIELD_DEFAULTS,
    ...rules,
  });

  it('gives every field its default or a value of its type within its bounds', () => {
    expect(
      sampleInputsOf([
        field('a', 'string', { maxLength: 3 }),
        field('b', 'string', { defaultValue: 'preset' }),
        field('c', 'integer', { minimum: 5 }),
        field('d', 'number', { maximum: -2 }),
        field('e', 'boolean'),
        field('f', 'object'),
        field('g', 'array'),
        field('h', 'image'),
      ]),
    ).toEqual({ a: 'you', b: 'preset', c: 5, d: -2, e: false, f: {}, g: [], h: SAMPLE_IMAGE });
  });
});

describe('endpointSnippetsOf', () => {
  it('quotes the body for the shell and reads the key from the environment', () => {
    const { curl, typescript } = endpointSnippetsOf(
      'http://acme.localhost:3000',
      '/api/v1/x',
      { text: "it's" },
      'ENDPOINT_KEY',
    );
    expect(curl).toBe(
      [
        "curl -X POST 'http://acme.localhost:3000/api/v1/x' \\",
        '  -H "x-api-key: $ENDPOINT_KEY" \\',
        "  -H 'Content-Type: application/json' \\",
        `  -d '{"text":"it'\\''s"}'`,
      ].join('\n'),
    );
    expect(typescript).toContain('baseUrl: "http://acme.localhost:3000"');
    expect(typescript).toContain("headers: { 'x-api-key': process.env.ENDPOINT_KEY }");
    expect(typescript).toContain('await promptgate.POST("/api/v1/x", {\n  body: {\n    "text": "it\'s"\n  },\n});');
  });
});
