import { Field } from '../../ui/controls';
import { sortModels } from './model-picker';
import {
  type FallbackDraft,
  MAX_FALLBACK_MODELS,
  MAX_RETRIES,
  type Model,
  newFallback,
  type PromptDraft,
} from './prompt-draft';

/**
 * Retries and fallback models: how many more times each model is tried after a failure that fails over (a provider's
 * 429 or 5xx, a network error, a timeout, an answer off the output fields), and the models tried after the prompt's
 * own, each with optional settings of its own (empty: the prompt's).
 */
export function FailoverSettings({
  draft,
  onChange,
  models,
  problem,
  serviceMessages,
}: {
  draft: PromptDraft;
  onChange: (patch: Partial<PromptDraft>) => void;
  models: Model[];
  problem: string | null;
  /** The service's refusals of the last save about retries or fallbackModels. */
  serviceMessages: string[];
}) {
  const sorted = sortModels(models);
  const setRow = (index: number, patch: Partial<FallbackDraft>) =>
    onChange({
      fallbackModels: draft.fallbackModels.map((row, i) => (i === index ? { ...row, ...patch } : row)),
    });
  const errors = [problem, ...serviceMessages].filter(Boolean).join(' ');
  return (
    <fieldset className="failover-settings">
      <legend>Retries and fallback models</legend>
      <Field
        label="Retries"
        hint="More tries of each model after a rate limit, a provider error, a network error, a timeout or an answer off the output fields."
        error={serviceMessages.filter((message) => message.startsWith('retries')).join(' ') || null}
      >
        {(id) => (
          <select id={id} value={draft.retries} onChange={(event) => onChange({ retries: Number(event.target.value) })}>
            {Array.from({ length: MAX_RETRIES + 1 }, (_, n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        )}
      </Field>
      {draft.fallbackModels.length === 0 && <p className="muted fine-print">No fallback models.</p>}
      <ol className="fallback-list">
        {draft.fallbackModels.map((row, index) => (
          <li key={index} className="fallback-row">
            <Field label={`Fallback model ${index + 1}`}>
              {(id) => (
                <select
                  id={id}
                  value={row.llmModel}
                  onChange={(event) => setRow(index, { llmModel: event.target.value })}
                >
                  {!sorted.some((model) => model.id === row.llmModel) && (
                    <option value={row.llmModel}>{row.llmModel}</option>
                  )}
                  {sorted.map((model) => (
                    <option key={model.id} value={model.id}>
                      {model.displayName} · {model.provider}
                      {model.available ? '' : ' · not available'}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={`Fallback ${index + 1} temperature`} hint="Empty: the prompt's.">
              {(id) => (
                <input
                  id={id}
                  inputMode="decimal"
                  value={row.temperature}
                  onChange={(event) => setRow(index, { temperature: event.target.value })}
                />
              )}
            </Field>
            <Field label={`Fallback ${index + 1} max tokens`} hint="Empty: the prompt's.">
              {(id) => (
                <input
                  id={id}
                  inputMode="numeric"
                  value={row.maxTokens}
                  onChange={(event) => setRow(index, { maxTokens: event.target.value })}
                />
              )}
            </Field>
            <Field label={`Fallback ${index + 1} custom parameters (JSON)`} hint="Empty: the prompt's.">
              {(id) => (
                <textarea
                  id={id}
                  rows={2}
                  spellCheck={false}
                  value={row.customParameters}
                  onChange={(event) => setRow(index, { customParameters: event.target.value })}
                />
              )}
            </Field>
            <button
              type="button"
              className="button"
              onClick={() => onChange({ fallbackModels: draft.fallbackModels.filter((_, i) => i !== index) })}
            >
              Remove fallback model {index + 1}
            </button>
          </li>
        ))}
      </ol>
      {errors && (
        <p className="field-error" role="alert">
          {errors}
        </p>
      )}
      <button
        type="button"
        className="button"
        disabled={draft.fallbackModels.length >= MAX_FALLBACK_MODELS}
        onClick={() =>
          onChange({
            fallbackModels: [
              ...draft.fallbackModels,
              newFallback(sorted.find((model) => model.available && model.id !== draft.llmModel)?.id ?? draft.llmModel),
            ],
          })
        }
      >
        Add a fallback model
      </button>
      <small className="hint">
        Tried in order once the prompt's model fails over, up to {MAX_FALLBACK_MODELS}; all attempts share the
        endpoint's timeout.
      </small>
    </fieldset>
  );
}
