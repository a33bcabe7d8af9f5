import { forgetDraft, keepDraft, keptDraftOf } from './kept-draft';
import type { PromptDraft } from './prompt-draft';

/** A Storage over a Map, as the browser's localStorage behaves. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

const draft: PromptDraft = {
  name: 'Short',
  template: 'Summarize {{ inputs.text }}',
  llmModel: 'gpt-4o-mini',
  temperature: 0.2,
  maxTokens: '500',
  customParameters: '',
  retries: 0,
  fallbackModels: [],
};

describe('kept drafts', () => {
  it('keeps a prompt’s changes with their version until they are forgotten', () => {
    const storage = memoryStorage();
    expect(keptDraftOf('p1', storage)).toBeNull();
    keepDraft('p1', { baseVersion: 3, draft }, storage);
    expect(keptDraftOf('p1', storage)).toEqual({ baseVersion: 3, draft });
    expect(keptDraftOf('p2', storage)).toBeNull();
    forgetDraft('p1', storage);
    expect(keptDraftOf('p1', storage)).toBeNull();
  });

  it('ignores an entry it cannot read', () => {
    const storage = memoryStorage();
    storage.setItem('promptgate:prompt-draft:p1', '{not json');
    expect(keptDraftOf('p1', storage)).toBeNull();
    storage.setItem('promptgate:prompt-draft:p1', JSON.stringify({ baseVersion: 1, draft: { template: 3 } }));
    expect(keptDraftOf('p1', storage)).toBeNull();
  });
});
