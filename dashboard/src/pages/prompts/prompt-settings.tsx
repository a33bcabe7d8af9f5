import { useId } from 'react';
import { Field } from '../../ui/controls';
import { formatNumber } from '../../ui/format';
import { temperatureMaxFor } from './model-choice';
import { ModelPicker } from './model-picker';
import { FailoverSettings } from './failover-settings';
import { type DraftProblems, MAX_TOKENS_MAX, MAX_TOKENS_MIN, type Model, type PromptDraft } from './prompt-draft';

/**
 * The model and its settings: temperature as a slider from 0 to the highest its model's provider accepts, its value
 * shown, max tokens within the API's bounds, and custom parameters as JSON with its parse error and the service's
 * messages about it.
 */
export function PromptSettings({
  draft,
  onChange,
  models,
  problems,
  serviceMessages,
}: {
  draft: PromptDraft;
  onChange: (patch: Partial<PromptDraft>) => void;
  models: Model[];
  problems: DraftProblems;
  /** The service's refusals of the last save, each naming its setting (`customParameters.<key> …`, `maxTokens …`). */
  serviceMessages: string[];
}) {
  const temperatureHintId = useId();
  const model = models.find((candidate) => candidate.id === draft.llmModel);
  const about = (setting: string) => serviceMessages.filter((message) => message.startsWith(setting));
  // The slider ends at the provider's highest temperature (2 for OpenAI and Google, 1 for Anthropic, from the
  // catalog), and stretches when a saved prompt is above it so its value still shows.
  const temperatureMax = temperatureMaxFor(model, draft.temperature);
  const aboveProvider = model !== undefined && draft.temperature > model.maxTemperature;
  return (
    <div className="prompt-settings">
      <ModelPicker
        models={models}
        value={draft.llmModel}
        onChange={(llmModel) => onChange({ llmModel })}
        error={problems.llmModel ?? (about('llmModel').join(' ') || null)}
      />
      <div className="field">
        <label htmlFor={`${temperatureHintId}-range`}>Temperature</label>
        <div className="temperature">
          <input
            id={`${temperatureHintId}-range`}
            type="range"
            min={0}
            max={temperatureMax}
            step={0.05}
            value={draft.temperature}
            aria-describedby={temperatureHintId}
            aria-valuetext={draft.temperature.toFixed(2)}
            onChange={(event) => onChange({ temperature: Math.round(Number(event.target.value) * 100) / 100 })}
          />
          <output htmlFor={`${temperatureHintId}-range`} className="temperature-value" aria-label="Temperature value">
            {draft.temperature.toFixed(2)}
          </output>
        </div>
        <small id={temperatureHintId} className="hint">
          0 to {temperatureMax}: lower is more consistent, higher is more varied.
        </small>
        {aboveProvider && (
          <small className="field-error">
            {model.provider} accepts temperatures up to {model.maxTemperature}: lower it before running this prompt.
          </small>
        )}
        {about('temperature').length > 0 && <small className="field-error">{about('temperature').join(' ')}</small>}
      </div>
      <Field
        label="Max tokens"
        error={problems.maxTokens ?? (about('maxTokens').join(' ') || null)}
        hint={`The longest answer, in tokens: ${MAX_TOKENS_MIN} to ${formatNumber(MAX_TOKENS_MAX)}${
          model?.maxOutputTokens ? `; ${model.displayName} writes at most ${formatNumber(model.maxOutputTokens)}` : ''
        }.`}
      >
        {(id) => (
          <input
            id={id}
            type="number"
            inputMode="numeric"
            min={MAX_TOKENS_MIN}
            max={MAX_TOKENS_MAX}
            step={1}
            value={draft.maxTokens}
            onChange={(event) => onChange({ maxTokens: event.target.value })}
          />
        )}
      </Field>
      <Field
        label="Custom parameters (JSON)"
        error={[problems.customParameters, ...about('customParameters')].filter(Boolean).join(' ') || null}
        hint='Provider settings sent with each call, e.g. {"top_p": 0.9}; on image endpoints, size and quality.'
      >
        {(id) => (
          <textarea
            id={id}
            rows={4}
            spellCheck={false}
            value={draft.customParameters}
            onChange={(event) => onChange({ customParameters: event.target.value })}
          />
        )}
      </Field>
      <FailoverSettings
        draft={draft}
        onChange={onChange}
        models={models}
        problem={problems.fallbackModels ?? null}
        serviceMessages={[...about('retries'), ...about('fallbackModels')]}
      />
    </div>
  );
}
