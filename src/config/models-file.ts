import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';

/**
 * MODELS_FILE: OpenAI-compatible providers with their models, and overrides of catalog entries.
 * Parsed and validated once at start, here in config/ because `apiKeyEnv` names an environment variable.
 */
const capabilities = z
  .object({
    reasoning: z.boolean(),
    streaming: z.boolean(),
    tools: z.boolean(),
    jsonMode: z.boolean(),
    vision: z.boolean(),
    imageGeneration: z.boolean(),
  })
  .partial()
  .strict();

const price = z.number().nonnegative().nullable();
const pricing = z
  .object({ inputPerMillionTokens: price, outputPerMillionTokens: price, perImage: price })
  .partial()
  .strict();

const modelFields = {
  id: z.string().trim().min(1).max(200),
  displayName: z.string().min(1).max(200).optional(),
  contextWindow: z.number().int().positive().nullable().optional(),
  maxOutputTokens: z.number().int().positive().nullable().optional(),
  pricing: pricing.optional(),
  capabilities: capabilities.optional(),
};

const providerModel = z.object(modelFields).strict();
const RESERVED_PROVIDERS = ['mock', 'openai', 'anthropic', 'google'];
/** The built-in test model stays what tests and demos rely on. */
const RESERVED_MODEL_IDS = ['mock-echo'];

const provider = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'must be lower-case letters, digits, - or _')
      .refine((name) => !RESERVED_PROVIDERS.includes(name), 'is a built-in provider name'),
    baseUrl: z.url({ protocol: /^https?$/ }),
    apiKey: z.string().min(1).optional(),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
      .optional(),
    models: z.array(providerModel).min(1),
  })
  .strict()
  .refine((p) => !(p.apiKey && p.apiKeyEnv), { message: 'give apiKey or apiKeyEnv, not both' });

/**
 * A top-level `models` entry belongs to a built-in provider (openai, anthropic, google) or to one of the file's
 * providers: it overrides the catalog entry with that id field by field, or adds the model when the catalog lacks it.
 */
const modelOverride = z.object({ ...modelFields, provider: z.string().min(1) }).strict();

const modelsFileSchema = z
  .object({ providers: z.array(provider).default([]), models: z.array(modelOverride).default([]) })
  .strict();

export type ModelsFileModel = z.infer<typeof providerModel>;
export type ModelsFileOverride = z.infer<typeof modelOverride>;

export interface ModelsFileProvider {
  name: string;
  baseUrl: string;
  /** From `apiKey`, or the variable `apiKeyEnv` names; undefined when neither gives one. */
  apiKey?: string;
  /** No key needed (neither apiKey nor apiKeyEnv given: a local server such as Ollama), or the key was found. */
  configured: boolean;
  models: ModelsFileModel[];
}

export interface ModelsFileContent {
  file: string;
  providers: ModelsFileProvider[];
  models: ModelsFileOverride[];
}

/** Reads and validates MODELS_FILE; throws an Error with a one-line message naming the file and the problem. */
export function readModelsFile(file: string, env: NodeJS.ProcessEnv): ModelsFileContent {
  const absolute = path.resolve(file);
  const fail = (problem: string): never => {
    throw new Error(`Invalid MODELS_FILE ${absolute}: ${problem}`);
  };
  let text = '';
  try {
    text = fs.readFileSync(absolute, 'utf8');
  } catch (error) {
    fail(`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = absolute.toLowerCase().endsWith('.json') ? JSON.parse(text) : YAML.parse(text);
  } catch (error) {
    fail(
      `not valid ${absolute.toLowerCase().endsWith('.json') ? 'JSON' : 'YAML'} (${oneLine((error as Error).message)})`,
    );
  }
  const parsed = modelsFileSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = /received undefined$/.test(issue.message) ? 'is required' : oneLine(issue.message);
    fail(`${issuePath(issue.path) || 'the document'} ${message}`);
  }
  const content = parsed.data!;
  const names = new Set<string>();
  const ids = new Set<string>();
  content.providers.forEach((p, index) => {
    if (names.has(p.name)) fail(`providers[${index}].name '${p.name}' is used twice`);
    names.add(p.name);
    p.models.forEach((m, modelIndex) => {
      if (RESERVED_MODEL_IDS.includes(m.id))
        fail(`providers[${index}].models[${modelIndex}].id '${m.id}' is the built-in test model`);
      if (ids.has(m.id)) fail(`providers[${index}].models[${modelIndex}].id '${m.id}' is listed twice`);
      ids.add(m.id);
    });
  });
  content.models.forEach((m, index) => {
    if (m.provider === 'mock' || (!RESERVED_PROVIDERS.includes(m.provider) && !names.has(m.provider))) {
      fail(`models[${index}].provider '${m.provider}' is not openai, anthropic, google or a provider of this file`);
    }
    if (RESERVED_MODEL_IDS.includes(m.id)) fail(`models[${index}].id '${m.id}' is the built-in test model`);
    if (ids.has(m.id)) fail(`models[${index}].id '${m.id}' is listed twice`);
    ids.add(m.id);
  });
  return {
    file: absolute,
    models: content.models,
    providers: content.providers.map((p) => {
      const apiKey = p.apiKey ?? (p.apiKeyEnv ? env[p.apiKeyEnv]?.trim() || undefined : undefined);
      return {
        name: p.name,
        baseUrl: p.baseUrl.replace(/\/+$/, ''),
        apiKey,
        configured: apiKey !== undefined || (!p.apiKey && !p.apiKeyEnv),
        models: p.models,
      };
    }),
  };
}

function issuePath(segments: PropertyKey[]): string {
  return segments.reduce<string>(
    (text, segment) =>
      typeof segment === 'number' ? `${text}[${segment}]` : text ? `${text}.${String(segment)}` : String(segment),
    '',
  );
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
