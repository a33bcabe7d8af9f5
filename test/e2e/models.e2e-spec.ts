import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ModelsService } from '../../src/modules/models/models.service';
import { useTestApp } from '../support/app-suite';
import { auth, seedTenant } from '../support/seed';
import { createTestApp, TestApp } from '../support/test-app';

const MODEL_FIELDS = [
  'available',
  'capabilities',
  'contextWindow',
  'displayName',
  'id',
  'isTestModel',
  'maxOutputTokens',
  'maxTemperature',
  'pricing',
  'provider',
];
const CAPABILITY_FIELDS = ['imageGeneration', 'jsonMode', 'reasoning', 'streaming', 'tools', 'vision'];
const PRICING_FIELDS = ['currency', 'inputPerMillionTokens', 'outputPerMillionTokens', 'perImage'];

type Model = Record<string, any>;

function writeTemp(name: string, text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-models-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

async function listModels(t: TestApp, key: string): Promise<Model[]> {
  const res = await t.http.get('/admin/v1/prompts/models').set(auth(key));
  expect(res.status).toBe(200);
  expect(res.body.succeeded).toBe(true);
  return res.body.data;
}

const byId = (models: Model[], id: string) => models.find((m) => m.id === id);

describe('GET /admin/v1/prompts/models (no provider keys)', () => {
  const { t, tenant } = useTestApp();

  it('lists every model with all of its documented fields', async () => {
    const models = await listModels(t, tenant.admin);
    expect(models.length).toBeGreaterThan(40);
    for (const model of models) {
      expect(Object.keys(model).sort()).toEqual(MODEL_FIELDS);
      expect(Object.keys(model.capabilities).sort()).toEqual(CAPABILITY_FIELDS);
      expect(Object.keys(model.pricing).sort()).toEqual(PRICING_FIELDS);
      expect(model.pricing.currency).toBe('USD');
      for (const flag of CAPABILITY_FIELDS) expect(typeof model.capabilities[flag]).toBe('boolean');
    }
    expect(new Set(models.map((m) => m.id)).size).toBe(models.length);
  });

  it("gives each model its provider's highest temperature: 2 for OpenAI, Google and the test model, 1 for Anthropic", async () => {
    const models = await listModels(t, tenant.admin);
    const byProvider = (provider: string) => models.filter((model) => model.provider === provider);
    for (const provider of ['openai', 'google', 'mock']) {
      expect(byProvider(provider).length).toBeGreaterThan(0);
      for (const model of byProvider(provider)) expect(model.maxTemperature).toBe(2);
    }
    expect(byProvider('anthropic').length).toBeGreaterThan(0);
    for (const model of byProvider('anthropic')) expect(model.maxTemperature).toBe(1);
  });

  it('always has mock-echo: available, zero pricing, a test model', async () => {
    const models = await listModels(t, tenant.admin);
    expect(models[0]).toMatchObject({
      id: 'mock-echo',
      provider: 'mock',
      available: true,
      isTestModel: true,
      pricing: { inputPerMillionTokens: 0, outputPerMillionTokens: 0, perImage: 0, currency: 'USD' },
    });
  });

  it('has the common provider ids with packaged prices and context windows', async () => {
    const models = await listModels(t, tenant.admin);
    const ids = [
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-4.1',
      'gpt-5',
      'gpt-5-mini',
      'gpt-5-nano',
      'claude-sonnet-4-5',
      'claude-haiku-4-5',
      'claude-opus-4-1',
      'gemini-2.5-pro',
      'gemini-2.5-flash',
      'gpt-image-1',
      'dall-e-3',
    ];
    for (const id of ids) expect(byId(models, id)).toBeDefined();
    expect(byId(models, 'gpt-4o')).toMatchObject({
      provider: 'openai',
      contextWindow: 128000,
      pricing: { inputPerMillionTokens: 2.5, outputPerMillionTokens: 10, perImage: null },
      capabilities: { jsonMode: true, streaming: true, tools: true, vision: true, imageGeneration: false },
      available: false,
      isTestModel: false,
    });
    expect(byId(models, 'claude-sonnet-4-5')).toMatchObject({
      provider: 'anthropic',
      contextWindow: 200000,
      maxOutputTokens: 64000,
      pricing: { inputPerMillionTokens: 3, outputPerMillionTokens: 15 },
      capabilities: { reasoning: true, jsonMode: true },
    });
    expect(byId(models, 'gemini-2.5-pro')).toMatchObject({
      provider: 'google',
      contextWindow: 1048576,
      capabilities: { reasoning: true },
    });
    expect(byId(models, 'dall-e-3')).toMatchObject({
      provider: 'openai',
      capabilities: { imageGeneration: true, jsonMode: false, streaming: false },
      pricing: { perImage: 0.04, inputPerMillionTokens: null, outputPerMillionTokens: null },
    });
    expect(byId(models, 'gpt-image-1')).toMatchObject({
      capabilities: { imageGeneration: true },
      pricing: { perImage: 0.042 },
    });
  });

  it('marks only the mock provider available when no provider key is set', async () => {
    const models = await listModels(t, tenant.admin);
    expect(models.filter((m) => m.available).map((m) => m.id)).toEqual(['mock-echo']);
  });

  it('answers ReadOnly keys, refuses endpoint keys (403) and missing keys (401)', async () => {
    expect((await listModels(t, tenant.readOnly)).length).toBeGreaterThan(1);
    const endpointKey = await t.http.get('/admin/v1/prompts/models').set(auth(tenant.endpointKey));
    expect(endpointKey.status).toBe(403);
    expect(endpointKey.body).toMatchObject({ succeeded: false, data: null });
    const none = await t.http.get('/admin/v1/prompts/models');
    expect(none.status).toBe(401);
    expect(none.body.succeeded).toBe(false);
  });

  it('prices calls from the catalog (costOf)', () => {
    const models = t.app.get(ModelsService);
    expect(models.costOf('gpt-4o', { inputTokens: 1000, outputTokens: 500 })).toBeCloseTo(0.0075, 9);
    expect(models.costOf('claude-haiku-4-5', { inputTokens: 2_000_000, outputTokens: 100_000 })).toBeCloseTo(2.5, 9);
    expect(models.costOf('mock-echo', { inputTokens: 123, outputTokens: 456 })).toBe(0);
    expect(models.costOf('dall-e-3', { images: 2 })).toBeCloseTo(0.08, 9);
    expect(models.costOf('gpt-image-1', { inputTokens: 100, outputTokens: 4160, images: 1 })).toBeCloseTo(0.0425, 9);
    expect(models.costOf('no-such-model', { inputTokens: 1 })).toBeNull();
    expect(models.costOf('gpt-4o', { images: 1 })).toBeNull();
  });
});

describe('GET /admin/v1/prompts/models with provider keys and MODELS_FILE', () => {
  it('follows the provider env keys', async () => {
    const t = await createTestApp({}, { OPENAI_API_KEY: 'sk-test', GOOGLE_GENERATIVE_AI_API_KEY: 'g-test' });
    try {
      const tenant = await seedTenant(t.app);
      const models = await listModels(t, tenant.admin);
      expect(models.filter((m) => m.provider === 'openai').every((m) => m.available)).toBe(true);
      expect(models.filter((m) => m.provider === 'google').every((m) => m.available)).toBe(true);
      expect(models.filter((m) => m.provider === 'anthropic').some((m) => m.available)).toBe(false);
      expect(t.app.get(ModelsService).provider('openai')).toMatchObject({
        kind: 'openai',
        apiKey: 'sk-test',
        configured: true,
      });
      expect(t.app.get(ModelsService).provider('anthropic')).toMatchObject({ kind: 'anthropic', configured: false });
    } finally {
      await t.close();
    }
  });

  it('adds OpenAI-compatible providers and overrides catalog entries from a YAML file', async () => {
    const file = writeTemp(
      'models.yaml',
      [
        'providers:',
        '  - name: local',
        '    baseUrl: http://127.0.0.1:11434/v1/',
        '    models:',
        '      - id: llama3.1:8b',
        '        displayName: Llama 3.1 8B',
        '        contextWindow: 131072',
        '        pricing: { inputPerMillionTokens: 0, outputPerMillionTokens: 0 }',
        '        capabilities: { tools: true }',
        '  - name: router',
        '    baseUrl: https://router.example.test/api/v1',
        '    apiKeyEnv: ROUTER_KEY',
        '    models:',
        '      - id: claude-haiku-4-5',
        '  - name: keyless',
        '    baseUrl: https://other.example.test/v1',
        '    apiKeyEnv: MISSING_KEY',
        '    models:',
        '      - id: other-model',
        'models:',
        '  - id: gpt-4o',
        '    provider: openai',
        '    pricing: { inputPerMillionTokens: 1, outputPerMillionTokens: 2 }',
        '  - id: gpt-future',
        '    provider: openai',
        '    displayName: GPT Future',
        '    contextWindow: 500000',
        '',
      ].join('\n'),
    );
    const t = await createTestApp({}, { MODELS_FILE: file, ROUTER_KEY: 'rk-1' });
    try {
      const tenant = await seedTenant(t.app);
      const models = await listModels(t, tenant.admin);
      expect(byId(models, 'llama3.1:8b')).toEqual({
        id: 'llama3.1:8b',
        provider: 'local',
        displayName: 'Llama 3.1 8B',
        contextWindow: 131072,
        maxOutputTokens: null,
        capabilities: {
          reasoning: false,
          streaming: true,
          tools: true,
          jsonMode: true,
          vision: false,
          imageGeneration: false,
        },
        pricing: { inputPerMillionTokens: 0, outputPerMillionTokens: 0, perImage: null, currency: 'USD' },
        maxTemperature: 2,
        available: true,
        isTestModel: false,
      });
      // Moved to the router provider, keeping the packaged data it did not override; an OpenAI-compatible server
      // takes temperatures up to 2.
      expect(byId(models, 'claude-haiku-4-5')).toMatchObject({
        provider: 'router',
        maxTemperature: 2,
        available: true,
        contextWindow: 200000,
        pricing: { inputPerMillionTokens: 1, outputPerMillionTokens: 5 },
      });
      expect(byId(models, 'other-model')).toMatchObject({ provider: 'keyless', available: false });
      expect(byId(models, 'gpt-4o')).toMatchObject({
        provider: 'openai',
        contextWindow: 128000,
        pricing: { inputPerMillionTokens: 1, outputPerMillionTokens: 2 },
        available: false,
      });
      expect(byId(models, 'gpt-future')).toMatchObject({
        provider: 'openai',
        displayName: 'GPT Future',
        contextWindow: 500000,
      });
      expect(byId(models, 'mock-echo')).toMatchObject({ available: true, isTestModel: true });

      const service = t.app.get(ModelsService);
      expect(service.provider('local')).toEqual({
        name: 'local',
        kind: 'openai-compatible',
        baseUrl: 'http://127.0.0.1:11434/v1',
        apiKey: undefined,
        configured: true,
      });
      expect(service.provider('router')).toMatchObject({ kind: 'openai-compatible', apiKey: 'rk-1', configured: true });
      expect(service.provider('keyless')).toMatchObject({ configured: false });
      expect(service.costOf('gpt-4o', { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBe(3);
    } finally {
      await t.close();
    }
  });

  it('reads a JSON file', async () => {
    const file = writeTemp(
      'models.json',
      JSON.stringify({
        providers: [{ name: 'vllm', baseUrl: 'http://127.0.0.1:8000/v1', apiKey: 'k', models: [{ id: 'qwen2.5-7b' }] }],
      }),
    );
    const t = await createTestApp({}, { MODELS_FILE: file });
    try {
      const tenant = await seedTenant(t.app);
      expect(byId(await listModels(t, tenant.admin), 'qwen2.5-7b')).toMatchObject({
        provider: 'vllm',
        available: true,
      });
    } finally {
      await t.close();
    }
  });

  it.each([
    ['a missing file', null, /cannot be read \(ENOENT\)/],
    ['bad YAML', 'providers: [\n  - name: x\n', /not valid YAML/],
    [
      'a bad base URL',
      'providers:\n  - name: x\n    baseUrl: nope\n    models: [{ id: m }]\n',
      /providers\[0\]\.baseUrl /,
    ],
    [
      'an unknown key',
      'providers:\n  - name: x\n    baseUrl: http://h/v1\n    models: [{ id: m }]\n    apiKeyEnvv: K\n',
      /providers\[0\] .*apiKeyEnvv/,
    ],
    ['a missing field', 'providers:\n  - name: x\n    baseUrl: http://h/v1\n', /providers\[0\]\.models is required/],
    [
      'a built-in provider name',
      'providers:\n  - name: openai\n    baseUrl: http://h/v1\n    models: [{ id: m }]\n',
      /providers\[0\]\.name is a built-in provider name/,
    ],
    [
      'an override of an unknown provider',
      'models:\n  - id: gpt-4o\n    provider: nowhere\n',
      /models\[0\]\.provider 'nowhere'/,
    ],
    [
      'a negative price',
      'models:\n  - id: gpt-4o\n    provider: openai\n    pricing: { inputPerMillionTokens: -1 }\n',
      /models\[0\]\.pricing\.inputPerMillionTokens/,
    ],
  ])('refuses to start with %s, naming the file and the problem in one line', async (_case, text, problem) => {
    const file =
      text === null ? path.join(os.tmpdir(), 'promptgate-no-such-models.yaml') : writeTemp('models.yaml', text);
    const started = createTestApp({}, { MODELS_FILE: file });
    await expect(started).rejects.toThrow(`Invalid MODELS_FILE ${file}: `);
    await expect(started).rejects.toThrow(problem);
    await started.catch((error: Error) => expect(error.message).not.toContain('\n'));
  });
});
