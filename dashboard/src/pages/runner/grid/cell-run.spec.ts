/** @jest-environment jsdom */
import type { PromptDraft } from '../../prompts/prompt-draft';
import { unsavedOfKept } from './cell-run';

const draft: PromptDraft = {
  name: '',
  template: 'Edited {{ inputs.text }}',
  llmModel: 'gpt-4o',
  temperature: 0.5,
  maxTokens: '256',
  customParameters: '{"top_p": 0.5}',
  retries: 1,
  fallbackModels: [{ llmModel: 'gpt-4o-mini', temperature: '', maxTokens: '', customParameters: '' }],
};

describe("a draft column's kept changes", () => {
  it('become the unsaved prompt a test run takes, an empty name not standing in the way', () => {
    expect(unsavedOfKept({ baseVersion: 2, draft })).toEqual({
      prompt: {
        template: 'Edited {{ inputs.text }}',
        llmModel: 'gpt-4o',
        temperature: 0.5,
        maxTokens: 256,
        customParameters: { top_p: 0.5 },
        retries: 1,
        fallbackModels: [{ llmModel: 'gpt-4o-mini' }],
      },
    });
  });

  it('that do not parse say what is wrong', () => {
    expect(unsavedOfKept({ baseVersion: 2, draft: { ...draft, customParameters: '{"top_p":' } })).toEqual({
      problem: expect.stringMatching(/^Not valid JSON/),
    });
    expect(unsavedOfKept({ baseVersion: 2, draft: { ...draft, maxTokens: 'lots' } })).toEqual({
      problem: expect.stringMatching(/^A whole number from 1 to/),
    });
  });
});
