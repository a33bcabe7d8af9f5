import { useId } from 'react';
import { ApiError } from '../../api/client';
import { Field } from '../../ui/controls';
import type { Endpoint } from '../runner/test-run';
import { LiquidEditor } from './liquid-editor';
import { draftProblems, type Model, NAME_MAX_LENGTH, type PromptDraft } from './prompt-draft';
import { PromptSettings } from './prompt-settings';
import './prompts.css';

/** Messages of the service that name a setting shown beside its control rather than in the form's list. */
const SETTING_MESSAGE = /^(customParameters|maxTokens|temperature|llmModel|name|retries|fallbackModels)\b/;

/** The service's messages of a refused save: those about one setting (shown by it), and the others. */
export function splitServiceMessages(error: unknown): { bySetting: string[]; rest: unknown } {
  if (!(error instanceof ApiError) || error.status !== 400) return { bySetting: [], rest: error };
  const bySetting = error.messages.filter((message) => SETTING_MESSAGE.test(message));
  const others = error.messages.filter((message) => !SETTING_MESSAGE.test(message));
  return { bySetting, rest: others.length > 0 ? new ApiError(error.status, others) : null };
}

/** The template (Liquid editor) and the settings of a prompt being written, for the create page and the prompt page. */
export function PromptFields({
  endpoint,
  models,
  draft,
  onChange,
  serviceMessages,
  showProblems,
}: {
  endpoint: Endpoint;
  models: Model[];
  draft: PromptDraft;
  onChange: (patch: Partial<PromptDraft>) => void;
  serviceMessages: string[];
  /** Whether to show a missing name (after a first attempt to save); parse errors show at once. */
  showProblems: boolean;
}) {
  const templateTitle = useId();
  const settingsTitle = useId();
  const problems = draftProblems(draft);
  const fields = endpoint.inputFields.map((field) => ({
    name: field.name,
    dataType: field.dataType,
    description: field.description,
  }));
  return (
    <>
      <section aria-labelledby={templateTitle} className="prompt-template">
        <h2 id={templateTitle}>Template</h2>
        <p className="muted fine-print">
          Liquid: read the request as{' '}
          {endpoint.inputFields.length > 0 ? (
            endpoint.inputFields.map((field, index) => (
              <span key={field.id}>
                {index > 0 && ', '}
                <code>{`{{ inputs.${field.name} }}`}</code>
              </span>
            ))
          ) : (
            <code>{'{{ inputs.<field> }}'}</code>
          )}
          . Press Ctrl+Space for suggestions; Tab leaves the editor.
        </p>
        <LiquidEditor
          label="Template"
          value={draft.template}
          onChange={(template) => onChange({ template })}
          endpointId={endpoint.id}
          fields={fields}
        />
      </section>
      <section aria-labelledby={settingsTitle} className="prompt-settings-section">
        <h2 id={settingsTitle}>Settings</h2>
        <Field
          label="Name"
          hint="Unique on this endpoint; its slug selects the prompt in ?prompt=."
          error={
            (showProblems ? problems.name : null) ??
            (serviceMessages.filter((message) => message.startsWith('name')).join(' ') || null)
          }
        >
          {(id) => (
            <input
              id={id}
              value={draft.name}
              maxLength={NAME_MAX_LENGTH}
              onChange={(event) => onChange({ name: event.target.value })}
              autoComplete="off"
            />
          )}
        </Field>
        <PromptSettings
          draft={draft}
          onChange={onChange}
          models={models}
          problems={problems}
          serviceMessages={serviceMessages}
        />
      </section>
    </>
  );
}
