import type { ExecutablePrompt } from '../prompts/executable-prompt';
import { answerKey, canonicalJson, judgeVerdictKey } from './answer-key';

const prompt: ExecutablePrompt = {
  id: '6f0e4c1a-1111-4c1a-8a1a-000000000001',
  endpointId: '6f0e4c1a-1111-4c1a-8a1a-000000000002',
  name: 'P',
  slug: 'p',
  status: 'Draft',
  version: 3,
  template: 'Say {{ inputs.text }}',
  llmModel: 'mock-echo',
  temperature: 0.2,
  maxTokens: 100,
  customParameters: { a: 1, b: 2 },
  retries: 0,
  fallbackModels: [],
};

describe('answerKey', () => {
  it('is the same for the same version, fields, inputs and repeat, whatever the order of their keys', () => {
    const key = answerKey(prompt, 'fields', { text: 'x', n: 1 }, 0);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(answerKey({ ...prompt, customParameters: { b: 2, a: 1 } }, 'fields', { n: 1, text: 'x' }, 0)).toBe(key);
  });

  it.each([
    ['the version', { ...prompt, version: 4 }, 'fields', { text: 'x' }, 0],
    ['a setting', { ...prompt, temperature: 0.3 }, 'fields', { text: 'x' }, 0],
    ['the fields', prompt, 'other', { text: 'x' }, 0],
    ['the inputs', prompt, 'fields', { text: 'y' }, 0],
    ['the repeat', prompt, 'fields', { text: 'x' }, 1],
  ])('changes with %s', (_, changed, fields, inputs, repeat) => {
    expect(answerKey(changed, fields, inputs, repeat)).not.toBe(answerKey(prompt, 'fields', { text: 'x' }, 0));
  });
});

describe('judgeVerdictKey', () => {
  it('changes with the judge model and the rendered rubric, and never equals an answer key', () => {
    const key = judgeVerdictKey('gpt-4o-mini', 'Grade yes');
    expect(judgeVerdictKey('gpt-4o-mini', 'Grade yes')).toBe(key);
    expect(judgeVerdictKey('gpt-4o', 'Grade yes')).not.toBe(key);
    expect(judgeVerdictKey('gpt-4o-mini', 'Grade no')).not.toBe(key);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('canonicalJson', () => {
  it('orders keys at every depth and leaves arrays in order', () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
  });
});
