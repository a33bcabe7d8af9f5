import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { Field } from '../../ui/controls';
import { formatNumber, formatPricePerMillion } from '../../ui/format';
import {
  CAPABILITY_FILTERS,
  type CapabilityFilter,
  cheapestCapable,
  filterModels,
  type ModelNeeds,
  pickerNames,
} from './model-choice';
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

/**
 * The model to start a new prompt with: the cheapest callable real model that does what the endpoint needs (image
 * input for images in, structured output for output fields, image generation for image outputs), else the offline
 * test model.
 */
export function defaultModel(models: Model[], needs: ModelNeeds): string {
  return cheapestCapable(models, needs);
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

function optionText(model: Model, name: string): string {
  return `${name} · ${model.provider} · ${priceText(model)} · ${contextText(model)}${model.available ? '' : ' · not available'}`;
}

/**
 * The model catalog as a searchable picker: a search over name, id and provider and filters on image input,
 * structured output and streaming narrow a list of the models, the callable ones first, each with its provider, price
 * per million tokens and context window (and its id where two share a name); the others are listed, disabled, with
 * the reason. The chosen model stays listed whatever the filters.
 */
export function ModelPicker({
  models,
  value,
  onChange,
  disabled,
  error,
  rows = 8,
}: {
  models: Model[];
  value: string;
  onChange: (id: string) => void;
  disabled?: boolean;
  error?: string | null;
  /** How many models the list shows at once. */
  rows?: number;
}) {
  const searchId = useId();
  const countId = useId();
  const listRef = useRef<HTMLSelectElement>(null);
  const [query, setQuery] = useState('');
  const [capabilities, setCapabilities] = useState<CapabilityFilter[]>([]);
  const names = pickerNames(models);
  const matching = new Set(filterModels(models, query, capabilities).map((model) => model.id));
  const shown = sortModels(models).filter((model) => matching.has(model.id) || model.id === value);
  const available = shown.filter((model) => model.available);
  const unavailable = shown.filter((model) => !model.available);
  const selected = models.find((model) => model.id === value);
  const filtered = query.trim() !== '' || capabilities.length > 0;

  function toggle(capability: CapabilityFilter, on: boolean) {
    setCapabilities((current) => (on ? [...current, capability] : current.filter((item) => item !== capability)));
  }

  // The arrow keys move from the search into the list, and Enter there takes the only match.
  function onSearchKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      listRef.current?.focus();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const only = shown.filter((model) => matching.has(model.id) && (model.available || model.id === value));
      if (only.length === 1) onChange(only[0].id);
    }
  }

  return (
    <div className="model-picker">
      <div className="model-filters">
        <div className="model-search">
          <label htmlFor={searchId}>Search the catalog</label>
          <input
            id={searchId}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={onSearchKey}
            aria-describedby={countId}
            autoComplete="off"
            spellCheck={false}
            disabled={disabled}
          />
        </div>
        <fieldset className="model-capabilities" disabled={disabled}>
          <legend>Only those with</legend>
          {CAPABILITY_FILTERS.map(({ capability, label }) => (
            <label key={capability}>
              <input
                type="checkbox"
                checked={capabilities.includes(capability)}
                onChange={(event) => toggle(capability, event.target.checked)}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
        <small id={countId} className="hint model-count" aria-live="polite">
          {filtered
            ? `${matching.size} of ${models.length} models match.${matching.size > 0 ? ' Press ↓ to go to the list.' : ''}`
            : `${models.length} models: type part of a name, id or provider.`}
        </small>
      </div>
      <Field
        label="Model"
        error={error}
        hint={selected ? <ModelFacts model={selected} /> : value ? `${value} is not in the catalog.` : undefined}
      >
        {(id) => (
          <select
            id={id}
            ref={listRef}
            size={rows}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            disabled={disabled}
          >
            {!selected && <option value={value}>{value ? `${value} (not in the catalog)` : 'Choose a model…'}</option>}
            {available.length > 0 && (
              <optgroup label="Available">
                {available.map((model) => (
                  <option key={model.id} value={model.id}>
                    {optionText(model, names.get(model.id) ?? model.displayName)}
                  </option>
                ))}
              </optgroup>
            )}
            {unavailable.length > 0 && (
              <optgroup label="Not available: provider not configured">
                {unavailable.map((model) => (
                  <option key={model.id} value={model.id} disabled={model.id !== value}>
                    {optionText(model, names.get(model.id) ?? model.displayName)}
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

/** The chosen model in a line: id, provider, prices, context, output limit, temperature range and what it can do. */
function ModelFacts({ model }: { model: Model }) {
  const abilities = Object.entries(model.capabilities)
    .filter(([, has]) => has)
    .map(([name]) => CAPABILITY_NAMES[name] ?? name);
  return (
    <span className="model-facts">
      <code>{model.id}</code> · {model.provider} · {priceText(model)} · {contextText(model)}
      {model.maxOutputTokens !== null && ` · up to ${formatNumber(model.maxOutputTokens)} output tokens`}
      {` · temperature 0 to ${model.maxTemperature}`}
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
