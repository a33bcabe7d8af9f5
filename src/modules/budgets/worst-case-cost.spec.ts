import { MOCK_MODELS, type ModelInfo } from '../models/model';
import { inputTokensOf } from './input-tokens';
import { CALL_OVERHEAD_TOKENS, INPUT_IMAGE_TOKENS, unitsToUsd, usdToUnits, worstCaseUnits } from './worst-case-cost';

function model(overrides: Partial<ModelInfo> & { pricing: ModelInfo['pricing'] }): ModelInfo {
  return { ...MOCK_MODELS[0], id: 'priced', provider: 'local', maxOutputTokens: 4096, ...overrides };
}

const PER_TOKEN = {
  inputPerMillionTokens: 1_000_000,
  outputPerMillionTokens: 2_000_000,
  perImage: null,
  currency: 'USD',
} as const;
const bytes = (_: ModelInfo, text: string) => Buffer.byteLength(text, 'utf8');

describe('worstCaseUnits', () => {
  it('prices the input tokens and the maxTokens of a text call', () => {
    const units = worstCaseUnits(
      model({ pricing: PER_TOKEN }),
      { prompt: 'héllo', inputImages: 0, maxTokens: 10, images: null },
      bytes,
    );
    // 6 bytes + the call's overhead at $1 a token, 10 output tokens at $2.
    expect(unitsToUsd(units)).toBe(6 + CALL_OVERHEAD_TOKENS + 20);
  });

  it("uses the model's own maximum output when the prompt sets none", () => {
    const units = worstCaseUnits(
      model({ pricing: PER_TOKEN, maxOutputTokens: 100 }),
      { prompt: '', inputImages: 0, maxTokens: 0, images: null },
      bytes,
    );
    expect(unitsToUsd(units)).toBe(CALL_OVERHEAD_TOKENS + 200);
  });

  it('bounds each input image', () => {
    const units = worstCaseUnits(
      model({ pricing: PER_TOKEN }),
      { prompt: '', inputImages: 2, maxTokens: 0, images: null },
      bytes,
    );
    expect(unitsToUsd(units)).toBe(2 * INPUT_IMAGE_TOKENS + CALL_OVERHEAD_TOKENS + 4096 * 2);
  });

  it('prices the images an image call asks for, not its output tokens', () => {
    const pricing = {
      inputPerMillionTokens: null,
      outputPerMillionTokens: 40,
      perImage: 0.04,
      currency: 'USD',
    } as const;
    const units = worstCaseUnits(
      model({ pricing }),
      { prompt: 'a cat', inputImages: 0, maxTokens: 500, images: 3 },
      bytes,
    );
    expect(units).toBe(usdToUnits(0.12));
  });

  it('reserves nothing for a model without a price', () => {
    const pricing = {
      inputPerMillionTokens: null,
      outputPerMillionTokens: null,
      perImage: null,
      currency: 'USD',
    } as const;
    expect(
      worstCaseUnits(
        model({ pricing }),
        { prompt: 'x'.repeat(1000), inputImages: 1, maxTokens: 100, images: null },
        bytes,
      ),
    ).toBe(0);
    expect(worstCaseUnits(MOCK_MODELS[0], { prompt: 'x', inputImages: 0, maxTokens: 100, images: null }, bytes)).toBe(
      0,
    );
  });

  it('rounds up to a billionth of a dollar', () => {
    const pricing = {
      inputPerMillionTokens: 0.15,
      outputPerMillionTokens: 0.6,
      perImage: null,
      currency: 'USD',
    } as const;
    const units = worstCaseUnits(
      model({ pricing }),
      { prompt: 'a', inputImages: 0, maxTokens: 1, images: null },
      bytes,
    );
    expect(units).toBe(Math.ceil((17 * 0.15 + 0.6) * 1000));
  });
});

describe('inputTokensOf', () => {
  const openAi = model({ id: 'gpt-4o-mini', provider: 'openai', pricing: PER_TOKEN });

  it("counts an OpenAI model's tokens with its tokenizer", () => {
    expect(inputTokensOf(openAi, 'hello world')).toBe(2);
  });

  it('counts text shaped like a special token as plain text', () => {
    expect(inputTokensOf(openAi, '<|endoftext|>')).toBeGreaterThan(1);
  });

  it('bounds other providers by the UTF-8 bytes', () => {
    expect(inputTokensOf(model({ pricing: PER_TOKEN }), 'héllo')).toBe(6);
  });

  it('never counts more tokens than bytes for OpenAI models either', () => {
    const text = 'Résumé: 東京 🚀 '.repeat(50);
    expect(inputTokensOf(openAi, text)).toBeLessThanOrEqual(Buffer.byteLength(text));
    expect(
      inputTokensOf(model({ id: 'gpt-4-turbo', provider: 'openai', pricing: PER_TOKEN }), text),
    ).toBeLessThanOrEqual(Buffer.byteLength(text));
  });
});
