import { compareVersions, contentChanged, VersionContent } from './version-compare';

const base: VersionContent = {
  template: 'a\nb\nc',
  llmModel: 'mock-echo',
  temperature: 0.7,
  maxTokens: 100,
  customParameters: { size: 'm' },
  retries: 1,
  fallbackModels: [{ llmModel: 'gpt-4o-mini', temperature: 0.2 }],
};

describe('contentChanged', () => {
  it('is false for equal content, including equal but distinct parameter objects', () => {
    expect(contentChanged(base, { ...base, customParameters: { size: 'm' } })).toBe(false);
    expect(contentChanged(base, { ...base, fallbackModels: [{ llmModel: 'gpt-4o-mini', temperature: 0.2 }] })).toBe(
      false,
    );
  });

  it.each([
    [{ template: 'a\nb' }],
    [{ llmModel: 'other' }],
    [{ temperature: 0.2 }],
    [{ maxTokens: 5 }],
    [{ customParameters: { size: 'l' } }],
    [{ customParameters: {} }],
    [{ retries: 0 }],
    [{ fallbackModels: [] }],
    [{ fallbackModels: [{ llmModel: 'gpt-4o-mini', temperature: 0.3 }] }],
    [{ fallbackModels: [{ llmModel: 'gpt-4o-mini' }] }],
  ])('is true when %o changes', (change) => {
    expect(contentChanged(base, { ...base, ...change })).toBe(true);
  });
});

describe('compareVersions', () => {
  it('numbers lines on both sides and lists changed settings', () => {
    const result = compareVersions(
      { ...base, versionNumber: 1 },
      { ...base, template: 'a\nB\nc\nd', maxTokens: 200, versionNumber: 4 },
    );
    expect(result.templateChanged).toBe(true);
    expect(result.templateDiff).toEqual([
      { type: 'unchanged', fromLine: 1, toLine: 1, text: 'a' },
      { type: 'removed', fromLine: 2, toLine: null, text: 'b' },
      { type: 'removed', fromLine: 3, toLine: null, text: 'c' },
      { type: 'added', fromLine: null, toLine: 2, text: 'B' },
      { type: 'added', fromLine: null, toLine: 3, text: 'c' },
      { type: 'added', fromLine: null, toLine: 4, text: 'd' },
    ]);
    expect(result.changedSettings).toEqual([{ setting: 'maxTokens', from: 100, to: 200 }]);
    expect(result.unifiedDiff).toContain('--- v1');
    expect(result.unifiedDiff).toContain('+++ v4');
  });

  it('reports no change for identical versions', () => {
    const result = compareVersions({ ...base, versionNumber: 2 }, { ...base, versionNumber: 2 });
    expect(result.templateChanged).toBe(false);
    expect(result.templateDiff.every((line) => line.type === 'unchanged')).toBe(true);
    expect(result.changedSettings).toEqual([]);
  });
});
