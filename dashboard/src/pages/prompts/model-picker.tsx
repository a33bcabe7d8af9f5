import { Field } from '../../ui/controls';
import { formatNumber, formatPricePerMillion } from '../../ui/format';
import type { Model } from './prompt-draft';

/** Models that can be called first (their provider is configured), then by provider and name. */
export function sortModels(models: Model[]): Model[] {
  return [...models].sort(
    (a, b) =>
      Number(b.available) - Number(a.available) ||
      a.provider.localeCompare(b.provider) ||
      a.displayName.localeCompare(b.displayName),
  );
}

/** The model to start a new prompt with: the first callable real model, else the offline test model. */
export function defaultModel(models: Model[], imageEndpoint: boolean): string {
  const callable = sortModels(models).filter((model) => model.available);
  const fits = (model: Model) => model.capabilities.imageGeneration === imageEndpoint;
  return (
    (callable.find((model) => fits(model) && !model.isTestModel) ?? callable.find(fits) ?? callable[0] ?? models[0])
      ?.id ?? ''
  );
}

function contextText(model: Model): string {
  if (model.contextWindow === null) return 'context window unknown';
  const tokens = model.contextWindow;
  return `${tokens >= 1_000_000 ? `${tokens / 1_000_000}M` : tokens >= 1000 ? `${Math.round(tokens / 1000)}K` : tokens} context`;
}

function priceText(model: Model): string {
  const { inputPerMillionTokens, outputPerMillionTokens, perImage } = model.pricing;
  const tokens = `${formatPricePerMillion(inputPerMillionTokens)} in · ${formatPricePerMillion(outputPerMillionTokens)} out`;
  return perImage !== null && model.capabilities.imageGeneration ? `$${perImage} per image` : tokens;
}

function optionText(model: Model): string {
  return `${model.displayName} · ${model.provider} · ${priceText(model)} · ${contextText(model)}${model.available ? '' : ' · not available'}`;
}

/**
 * The model catalog as a picker: the callable models first, each with its provider, price per million tokens and
 * context window; the others listed, disabled, with the reason.
 */
export function ModelPicker({
  models,
  value,
  onChange,
  disabled,
  error,
}: {
  models: Model[];
  value: string;
  onChange: (id: string) => void;
  disabled?: boolean;
  error?: string | null;
}) {
  const sorted = sortModels(models);
  const available = sorted.filter((model) => model.available);
  const unavailable = sorted.filter((model) => !model.available);
  const selected = models.find((model) => model.id === value);
  return (
    <div className="model-picker">
      <Field
        label="Model"
        error={error}
        hint={selected ? <ModelFacts model={selected} /> : value ? `${value} is not in the catalog.` : undefined}
      >
        {(id) => (
          <select id={id} value={value} onChange={(event) => onChange(event.target.value)} disabled={disabled}>
            {!selected && <option value={value}>{value ? `${value} (not in the catalog)` : 'Choose a model…'}</option>}
            <optgroup label="Available">
              {available.map((model) => (
                <option key={model.id} value={model.id}>
                  {optionText(model)}
                </option>
              ))}
            </optgroup>
            {unavailable.length > 0 && (
              <optgroup label="Not available: provider not configured">
                {unavailable.map((model) => (
                  <option key={model.id} value={model.id} disabled={model.id !== value}>
                    {optionText(model)}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        )}
      </Field>
    </div>
  );
}

/** The chosen model in a line: provider, prices, context, output limit and what it can do. */
function ModelFacts({ model }: { model: Model }) {
  const abilities = Object.entries(model.capabilities)
    .filter(([, has]) => has)
    .map(([name]) => CAPABILITY_NAMES[name] ?? name);
  return (
    <span className="model-facts">
      <code>{model.id}</code> · {model.provider} · {priceText(model)} · {contextText(model)}
      {model.maxOutputTokens !== null && ` · up to ${formatNumber(model.maxOutputTokens)} output tokens`}
      {abilities.length > 0 && ` · ${abilities.join(', ')}`}
      {model.isTestModel && ' · offline test model, free'}
      {!model.available && (
        <strong className="model-unavailable">
          {' '}
          Not available: the {model.provider} provider is not configured on this service, so runs of this prompt fail
          until it is.
        </strong>
      )}
    </span>
  );
}

const CAPABILITY_NAMES: Record<string, string> = {
  reasoning: 'reasoning',
  streaming: 'streaming',
  tools: 'tools',
  jsonMode: 'JSON output',
  vision: 'image input',
  imageGeneration: 'image generation',
};
