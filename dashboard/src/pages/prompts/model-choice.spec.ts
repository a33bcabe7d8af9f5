import type { Schemas } from '../../api/client';
import { cheapestCapable, filterModels, matchesQuery, needsOf, pickerNames, temperatureMaxFor } from './model-choice';

type Model = Schemas['ModelResponse'];

function model(
  id: string,
  overrides: Partial<Omit<Model, 'capabilities' | 'pricing'>> & {
    capabilities?: Partial<Model['capabilities']>;
    pricing?: Partial<Model['pricing']>;
  } = {},
): Model {
  return {
    id,
    provider: 'openai',
    displayName: id,
    contextWindow: 128000,
    maxOutputTokens: 16000,
    maxTemperature: 2,
    available: true,
    isTestModel: false,
    ...overrides,
    capabilities: {
      reasoning: false,
      streaming: true,
      tools: true,
      jsonMode: true,
      vision: false,
      imageGeneration: false,
      ...overrides.capabilities,
    },
    pricing: {
      inputPerMillionTokens: 1,
      outputPerMillionTokens: 4,
      perImage: null,
      currency: 'USD',
      ...overrides.pricing,
    },
  };
}

const mock = model('mock-echo', {
  provider: 'mock',
  isTestModel: true,
  capabilities: { vision: true, streaming: false },
  pricing: { inputPerMillionTokens: 0, outputPerMillionTokens: 0, perImage: 0 },
});
const text = { vision: false, jsonMode: false, imageGeneration: false };

describe('matchesQuery and filterModels', () => {
  const flash = model('gemini-2.5-flash', { provider: 'google', displayName: 'Gemini 2.5 Flash' });
  const mini = model('gpt-4o-mini', { displayName: 'GPT-4o mini', capabilities: { vision: true } });
  const pro = model('gpt-5-pro', { displayName: 'GPT-5 Pro', capabilities: { streaming: false } });

  it('matches every typed word, in any case, against the name, the id or the provider', () => {
    expect(matchesQuery(flash, 'FLASH')).toBe(true);
    expect(matchesQuery(flash, 'google 2.5')).toBe(true);
    expect(matchesQuery(mini, '4o-mini')).toBe(true);
    expect(matchesQuery(mini, 'openai mini')).toBe(true);
    expect(matchesQuery(mini, 'google mini')).toBe(false);
    expect(matchesQuery(mini, '   ')).toBe(true);
  });

  it('keeps only the models with every capability asked for', () => {
    expect(filterModels([flash, mini, pro], '', ['vision']).map((m) => m.id)).toEqual(['gpt-4o-mini']);
    expect(filterModels([flash, mini, pro], 'gpt', ['streaming']).map((m) => m.id)).toEqual(['gpt-4o-mini']);
    expect(filterModels([flash, mini, pro], '', []).length).toBe(3);
  });
});

describe('needsOf', () => {
  it('asks for image input when an input is an image, and structured output when an output field is not an image', () => {
    expect(needsOf({ inputFields: [{ dataType: 'image' }], outputFields: [] })).toEqual({
      vision: true,
      jsonMode: false,
      imageGeneration: false,
    });
    expect(needsOf({ inputFields: [{ dataType: 'string' }], outputFields: [{ dataType: 'number' }] })).toEqual({
      vision: false,
      jsonMode: true,
      imageGeneration: false,
    });
    expect(needsOf({ inputFields: [], outputFields: [{ dataType: 'image' }] })).toEqual({
      vision: false,
      jsonMode: false,
      imageGeneration: true,
    });
  });
});

describe('cheapestCapable', () => {
  const costly = model('gpt-5-pro', { pricing: { inputPerMillionTokens: 15, outputPerMillionTokens: 120 } });
  const cheap = model('gpt-5-nano', { pricing: { inputPerMillionTokens: 0.05, outputPerMillionTokens: 0.4 } });
  const cheapVision = model('gemini-2.5-flash-lite', {
    provider: 'google',
    capabilities: { vision: true },
    pricing: { inputPerMillionTokens: 0.1, outputPerMillionTokens: 0.4 },
  });
  const unpriced = model('mystery', { pricing: { inputPerMillionTokens: null, outputPerMillionTokens: null } });

  it('starts on the cheapest callable real model, never the most expensive', () => {
    expect(cheapestCapable([mock, costly, cheapVision, cheap], text)).toBe('gpt-5-nano');
  });

  it('needs image input for images in and structured output for output fields', () => {
    expect(cheapestCapable([mock, costly, cheapVision, cheap], { ...text, vision: true })).toBe(
      'gemini-2.5-flash-lite',
    );
    const noJson = model('cheapest-no-json', {
      capabilities: { jsonMode: false },
      pricing: { inputPerMillionTokens: 0.01, outputPerMillionTokens: 0.01 },
    });
    expect(cheapestCapable([noJson, cheap], { ...text, jsonMode: true })).toBe('gpt-5-nano');
    expect(cheapestCapable([noJson, cheap], text)).toBe('cheapest-no-json');
  });

  it('skips models whose provider is not configured, and puts unknown prices last', () => {
    expect(cheapestCapable([{ ...cheap, available: false }, costly], text)).toBe('gpt-5-pro');
    expect(cheapestCapable([unpriced, costly], text)).toBe('gpt-5-pro');
  });

  it('compares image models by their price per image on image endpoints', () => {
    const images = { vision: false, jsonMode: false, imageGeneration: true };
    const dear = model('gpt-image-1', { capabilities: { imageGeneration: true }, pricing: { perImage: 0.042 } });
    const mini = model('gpt-image-1-mini', { capabilities: { imageGeneration: true }, pricing: { perImage: 0.011 } });
    expect(cheapestCapable([cheap, dear, mini], images)).toBe('gpt-image-1-mini');
  });

  it('falls back to the offline test model, then to any callable model', () => {
    expect(cheapestCapable([mock, { ...cheap, available: false }], text)).toBe('mock-echo');
    expect(cheapestCapable([mock], { ...text, imageGeneration: true })).toBe('mock-echo');
    expect(cheapestCapable([], text)).toBe('');
  });
});

describe('pickerNames', () => {
  it('adds the id where two models share a display name, and leaves the others alone', () => {
    const names = pickerNames([
      model('gemini-2.5-flash', { displayName: 'Gemini 2.5 Flash' }),
      model('gemini-2.5-flash-preview-09-2025', { displayName: 'gemini 2.5 flash ' }),
      model('gpt-4o', { displayName: 'GPT-4o' }),
    ]);
    expect(names.get('gemini-2.5-flash')).toBe('Gemini 2.5 Flash (gemini-2.5-flash)');
    expect(names.get('gemini-2.5-flash-preview-09-2025')).toBe('gemini 2.5 flash  (gemini-2.5-flash-preview-09-2025)');
    expect(names.get('gpt-4o')).toBe('GPT-4o');
  });
});

describe('temperatureMaxFor', () => {
  it("ends at the model's provider maximum: 2 for OpenAI, 1 for Anthropic", () => {
    expect(temperatureMaxFor(model('gpt-4o-mini'), 0.7)).toBe(2);
    expect(temperatureMaxFor(model('claude-haiku-4-5', { provider: 'anthropic', maxTemperature: 1 }), 0.7)).toBe(1);
  });

  it('stretches to a saved value above it, never beyond the API bound, and is 2 for a model not in the catalog', () => {
    expect(temperatureMaxFor(model('claude-haiku-4-5', { maxTemperature: 1 }), 1.4)).toBe(1.4);
    expect(temperatureMaxFor(model('claude-haiku-4-5', { maxTemperature: 1 }), 3)).toBe(2);
    expect(temperatureMaxFor(undefined, 0.5)).toBe(2);
  });
});
