import {
  customParametersProblems,
  SERVICE_CONTROLLED_SETTINGS,
  splitCustomParameters,
  splitImageSettings,
} from './call-settings';

describe('customParametersProblems', () => {
  const text = { imageEndpoint: false, maxImagesPerCall: 4 };
  const image = { imageEndpoint: true, maxImagesPerCall: 4 };

  it('accepts provider settings the service does not control', () => {
    expect(customParametersProblems({}, text)).toEqual([]);
    expect(customParametersProblems({ top_p: 0.9, reasoningEffort: 'low', num_ctx: 8192 }, text)).toEqual([]);
    expect(customParametersProblems({ n: 4, size: '1024x1024', quality: 'high' }, image)).toEqual([]);
  });

  it('refuses every setting the service controls, naming each key', () => {
    for (const key of SERVICE_CONTROLLED_SETTINGS) {
      expect(customParametersProblems({ [key]: 1 }, text)).toEqual([
        `customParameters.${key} cannot be set: the service controls it`,
      ]);
      expect(customParametersProblems({ [key]: 1 }, image)).toEqual([
        `customParameters.${key} cannot be set: the service controls it`,
      ]);
    }
    expect(
      customParametersProblems({ model: 'openai/o1-pro', n: 64, max_completion_tokens: 100000, seed: 1 }, text),
    ).toEqual([
      'customParameters.model cannot be set: the service controls it',
      'customParameters.n cannot be set: the service controls it',
      'customParameters.max_completion_tokens cannot be set: the service controls it',
    ]);
  });

  it('refuses the settings the service controls in any case, with or without _ and -', () => {
    for (const key of [
      'MAX_TOKENS',
      'Max-Tokens',
      'maxcompletiontokens',
      'MODEL',
      'Response_Format',
      'streamOptions',
    ]) {
      expect(customParametersProblems({ [key]: 1 }, text)).toEqual([
        `customParameters.${key} cannot be set: the service controls it`,
      ]);
    }
  });

  it('refuses what would let a call bill beyond maxTokens or change its billing tier, at any depth', () => {
    const refused = (key: string, inner?: string) => [
      `customParameters.${key} cannot be set: ${inner ? `its ${inner}` : 'it'} would let a call bill beyond maxTokens or change its billing tier`,
    ];
    expect(customParametersProblems({ thinking: { type: 'enabled', budgetTokens: 60000 } }, text)).toEqual(
      refused('thinking'),
    );
    // Anthropic adds a budget of its own when thinking is enabled without one.
    expect(customParametersProblems({ thinking: { type: 'Enabled' } }, text)).toEqual(refused('thinking'));
    expect(customParametersProblems({ thinking: { type: 'disabled', budget_tokens: 10 } }, text)).toEqual(
      refused('thinking', 'budget_tokens'),
    );
    expect(customParametersProblems({ thinkingConfig: { thinkingBudget: 24576 } }, text)).toEqual(
      refused('thinkingConfig', 'thinkingBudget'),
    );
    expect(customParametersProblems({ reasoning: { max_tokens: 9000 } }, text)).toEqual(
      refused('reasoning', 'max_tokens'),
    );
    expect(customParametersProblems({ extra_body: { nested: [{ MAX_NEW_TOKENS: 1 }] } }, text)).toEqual(
      refused('extra_body', 'MAX_NEW_TOKENS'),
    );
    for (const key of [
      'max_tokens_to_sample',
      'serviceTier',
      'service_tier',
      'SERVICE-TIER',
      'num_predict',
      'best_of',
    ]) {
      expect(customParametersProblems({ [key]: 'priority' }, text)).toEqual(refused(key));
      expect(customParametersProblems({ [key]: 'priority' }, image)).toEqual(refused(key));
    }
  });

  it('accepts settings that stay within maxTokens: reasoning effort, thinking off, other nested options', () => {
    expect(
      customParametersProblems(
        { reasoningEffort: 'high', thinking: { type: 'disabled' }, thinkingConfig: { includeThoughts: true } },
        text,
      ),
    ).toEqual([]);
  });

  it('takes n on image endpoints as an integer from 1 to the images per call', () => {
    for (const n of [0, 5, 100000000, 1.5, -1, '2', null, true]) {
      expect(customParametersProblems({ n }, image)).toEqual(['customParameters.n must be an integer from 1 to 4']);
    }
    expect(customParametersProblems({ n: 1 }, image)).toEqual([]);
    expect(customParametersProblems({ n: 7 }, { imageEndpoint: true, maxImagesPerCall: 8 })).toEqual([]);
  });

  it('bounds the object at 50 keys and 16 KiB of JSON', () => {
    const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
    expect(customParametersProblems(keys(50), text)).toEqual([]);
    expect(customParametersProblems(keys(51), text)).toEqual(['customParameters must have at most 50 keys; it has 51']);
    // {"s":"…"} is 8 bytes of JSON around the string.
    expect(customParametersProblems({ s: 'x'.repeat(16384 - 8) }, text)).toEqual([]);
    expect(customParametersProblems({ s: 'x'.repeat(16384 - 7) }, text)).toEqual([
      'customParameters must be at most 16384 bytes of JSON; it has 16385',
    ]);
    expect(customParametersProblems({ s: 'é'.repeat(8189) }, text)).toEqual([
      'customParameters must be at most 16384 bytes of JSON; it has 16386',
    ]);
  });

  it('refuses what is not an object', () => {
    for (const value of [null, [], 'x', 1])
      expect(customParametersProblems(value, text)).toEqual(['customParameters must be an object']);
  });
});

describe('splitCustomParameters', () => {
  it('maps common sampling settings and passes the rest as provider options', () => {
    expect(splitCustomParameters({ top_p: 0.5, stop: 'END', reasoningEffort: 'low' })).toEqual({
      common: { topP: 0.5, stopSequences: ['END'] },
      provider: { reasoningEffort: 'low' },
    });
  });

  it('never passes on what the service controls, even from a row saved before it was refused', () => {
    const parameters = {
      model: 'openai/o1-pro',
      messages: [],
      n: 64,
      max_completion_tokens: 100000,
      max_tokens: 9,
      stream: true,
      seed: 3,
      keep: 1,
    };
    expect(splitCustomParameters(parameters)).toEqual({ common: { seed: 3 }, provider: { keep: 1 } });
    const billing = { MAX_TOKENS: 5, thinking: { type: 'enabled', budgetTokens: 60000 }, service_tier: 'priority' };
    expect(splitCustomParameters({ ...billing, keep: 2 })).toEqual({ common: {}, provider: { keep: 2 } });
    expect(splitImageSettings({ ...billing, quality: 'high' })).toEqual({ provider: { quality: 'high' } });
  });
});

describe('splitImageSettings', () => {
  it("keeps the AI SDK's own settings apart and drops the model, the prompt and an n that is not a number", () => {
    expect(
      splitImageSettings({ n: 2, size: '512x512', output_format: 'png', model: 'x', prompt: 'y', max_tokens: 1 }),
    ).toEqual({
      n: 2,
      size: '512x512',
      provider: { outputFormat: 'png' },
    });
    expect(splitImageSettings({ n: '100' })).toEqual({ provider: {} });
  });
});
