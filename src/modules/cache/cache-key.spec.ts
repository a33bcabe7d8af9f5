import { cacheKey, canonicalJson, type CacheKeyParts } from './cache-key';

const base: CacheKeyParts = {
  endpointId: '11111111-1111-4111-8111-111111111111',
  promptId: '22222222-2222-4222-8222-222222222222',
  promptVersion: 3,
  llmModel: 'mock-echo',
  temperature: 0.7,
  maxTokens: 1024,
  customParameters: { size: '1024x1024', quality: 'high' },
  body: { text: 'hello', options: { a: 1, b: [1, { y: 2, x: 1 }] } },
};

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: { z: 0, y: null } } })).toBe(
      '{"a":{"c":{"y":null,"z":0},"d":[2,1]},"b":1}',
    );
  });

  it('renders a missing body as null', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(null)).toBe('null');
  });

  it('renders a value JSON cannot hold as null rather than nothing', () => {
    expect(canonicalJson(() => 1)).toBe('null');
    expect(canonicalJson(Symbol('s'))).toBe('null');
  });

  it('keeps falsy values', () => {
    expect(canonicalJson(0)).toBe('0');
    expect(canonicalJson('')).toBe('""');
    expect(canonicalJson(false)).toBe('false');
  });
});

describe('cacheKey', () => {
  it('is stable and names the endpoint', () => {
    const key = cacheKey(base);
    expect(key).toMatch(/^resp:11111111-1111-4111-8111-111111111111:[0-9a-f]{64}$/);
    expect(cacheKey({ ...base })).toBe(key);
  });

  it('does not depend on the key order of the body or of custom parameters', () => {
    const reordered = {
      ...base,
      customParameters: { quality: 'high', size: '1024x1024' },
      body: { options: { b: [1, { x: 1, y: 2 }], a: 1 }, text: 'hello' },
    };
    expect(cacheKey(reordered)).toBe(cacheKey(base));
  });

  it.each<[string, Partial<CacheKeyParts>]>([
    ['endpoint', { endpointId: '33333333-3333-4333-8333-333333333333' }],
    ['prompt', { promptId: '44444444-4444-4444-8444-444444444444' }],
    ['prompt version', { promptVersion: 4 }],
    ['model', { llmModel: 'gpt-4o' }],
    ['temperature', { temperature: 0.2 }],
    ['max tokens', { maxTokens: 10 }],
    ['custom parameters', { customParameters: { size: '512x512', quality: 'high' } }],
    ['body value', { body: { text: 'hello!', options: base.body && (base.body as { options: unknown }).options } }],
    ['extra body field', { body: { ...(base.body as object), extra: true } }],
    ['array order', { body: { text: 'hello', options: { a: 1, b: [{ y: 2, x: 1 }, 1] } } }],
    ['value type', { body: { text: 'hello', options: { a: '1', b: [1, { y: 2, x: 1 }] } } }],
  ])('changes with the %s', (_what, change) => {
    expect(cacheKey({ ...base, ...change })).not.toBe(cacheKey(base));
  });

  it('never puts the body into the key', () => {
    expect(cacheKey({ ...base, body: { secret: 'hunter2' } })).not.toContain('hunter2');
  });
});
