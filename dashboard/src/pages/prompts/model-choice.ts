import type { Schemas } from '../../api/client';

type Model = Schemas['ModelResponse'];

/** The capabilities the picker filters on. */
export type CapabilityFilter = 'vision' | 'jsonMode' | 'streaming';

export const CAPABILITY_FILTERS: { capability: CapabilityFilter; label: string }[] = [
  { capability: 'vision', label: 'Image input' },
  { capability: 'jsonMode', label: 'Structured output' },
  { capability: 'streaming', label: 'Streaming' },
];

/** What the endpoint asks of a model: images in need image input, output fields need structured output. */
export interface ModelNeeds {
  vision: boolean;
  jsonMode: boolean;
  imageGeneration: boolean;
}

interface EndpointFields {
  inputFields: { dataType: string }[];
  outputFields: { dataType: string }[];
}

export function needsOf(endpoint: EndpointFields): ModelNeeds {
  return {
    vision: endpoint.inputFields.some((field) => field.dataType === 'image'),
    // The service asks for JSON matching the output fields other than images.
    jsonMode: endpoint.outputFields.some((field) => field.dataType !== 'image'),
    imageGeneration: endpoint.outputFields.some((field) => field.dataType === 'image'),
  };
}

/**
 * Whether a model matches what was typed: every word of it (case aside) is in the model's display name, id or
 * provider, so "flash google" and "4o mini" both find their models.
 */
export function matchesQuery(model: Model, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const text = `${model.displayName} ${model.id} ${model.provider}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

/** The models that match the query and have every capability asked for. */
export function filterModels(models: Model[], query: string, capabilities: CapabilityFilter[]): Model[] {
  return models.filter(
    (model) => matchesQuery(model, query) && capabilities.every((capability) => model.capabilities[capability]),
  );
}

/** Whether a model does what the endpoint needs. */
export function isCapable(model: Model, needs: ModelNeeds): boolean {
  if (model.capabilities.imageGeneration !== needs.imageGeneration) return false;
  if (needs.vision && !model.capabilities.vision) return false;
  // Image models answer with images, never JSON: structured output is asked of text models only.
  return needs.imageGeneration || !needs.jsonMode || model.capabilities.jsonMode;
}

/** What a call costs in the model's prices, to compare models: per image for image models, else input plus output per million tokens; null when unknown. */
export function priceOf(model: Model): number | null {
  const { inputPerMillionTokens, outputPerMillionTokens, perImage } = model.pricing;
  if (model.capabilities.imageGeneration) return perImage;
  return inputPerMillionTokens === null || outputPerMillionTokens === null
    ? null
    : inputPerMillionTokens + outputPerMillionTokens;
}

/**
 * The model a new prompt starts with: the cheapest callable real model that does what the endpoint needs (a price
 * known before an unknown one; a tie goes to the name), else the offline test model if it fits, else the first
 * callable model.
 */
export function cheapestCapable(models: Model[], needs: ModelNeeds): string {
  const callable = models.filter((model) => model.available);
  const capable = callable.filter((model) => isCapable(model, needs));
  const real = capable
    .filter((model) => !model.isTestModel)
    .sort((a, b) => {
      const pa = priceOf(a);
      const pb = priceOf(b);
      if (pa !== pb) return pa === null ? 1 : pb === null ? -1 : pa - pb;
      return a.displayName.localeCompare(b.displayName) || a.id.localeCompare(b.id);
    });
  return (real[0] ?? capable[0] ?? callable[0] ?? models[0])?.id ?? '';
}

/**
 * Each model's name in the picker: its display name, followed by its id where another model of the catalog has the
 * same display name (two "Gemini 2.5 Flash" would otherwise look alike).
 */
export function pickerNames(models: Model[]): Map<string, string> {
  const counts = new Map<string, number>();
  for (const model of models) {
    const key = model.displayName.trim().toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return new Map(
    models.map((model) => [
      model.id,
      (counts.get(model.displayName.trim().toLowerCase()) ?? 0) > 1 && model.displayName !== model.id
        ? `${model.displayName} (${model.id})`
        : model.displayName,
    ]),
  );
}

/** The API's bound on a prompt's temperature, whatever its model. */
export const TEMPERATURE_LIMIT = 2;

/**
 * The temperature slider's end: the highest temperature the model's provider accepts (the catalog's `maxTemperature`;
 * the API's bound for a model the catalog does not have), stretched to a saved value above it so the value still shows.
 */
export function temperatureMaxFor(model: Model | undefined, temperature: number): number {
  return Math.max(model?.maxTemperature ?? TEMPERATURE_LIMIT, Math.min(temperature, TEMPERATURE_LIMIT));
}
