import { bounds } from '../../api/bounds';
import type { Schemas } from '../../api/client';
import { isRecord } from '../runner/test-run';
import { messageOf } from '../../ui/controls';

export type Prompt = Schemas['PromptResponse'];
export type Model = Schemas['ModelResponse'];

/** The API's bounds of a prompt's settings. */
export const MAX_TOKENS_MIN = bounds.CreatePromptDto.maxTokens.minimum;
export const MAX_TOKENS_MAX = bounds.CreatePromptDto.maxTokens.maximum;
export const NAME_MAX_LENGTH = bounds.CreatePromptDto.name.maxLength;
export const MAX_RETRIES = bounds.CreatePromptDto.retries.maximum;
export const MAX_FALLBACK_MODELS = bounds.CreatePromptDto.fallbackModels.maxItems;
const TEMPERATURE_MAX = bounds.FallbackModelDto.temperature.maximum;

export type FallbackModel = Schemas['FallbackModelResponse'];

/** A fallback model as typed: an empty setting is the prompt's own. */
export interface FallbackDraft {
  llmModel: string;
  temperature: string;
  maxTokens: string;
  customParameters: string;
}

/** What the editor holds: the prompt's content as typed, custom parameters as JSON text. */
export interface PromptDraft {
  name: string;
  template: string;
  llmModel: string;
  temperature: number;
  /** Text, so a half-typed number stays as typed. */
  maxTokens: string;
  customParameters: string;
  retries: number;
  fallbackModels: FallbackDraft[];
}

export function draftOf(prompt: Prompt): PromptDraft {
  return {
    name: prompt.name,
    template: prompt.template,
    llmModel: prompt.llmModel,
    temperature: prompt.temperature,
    maxTokens: String(prompt.maxTokens),
    customParameters: customParametersText(prompt.customParameters),
    retries: prompt.retries,
    fallbackModels: prompt.fallbackModels.map(fallbackDraftOf),
  };
}

function fallbackDraftOf(fallback: FallbackModel): FallbackDraft {
  return {
    llmModel: fallback.llmModel,
    temperature: fallback.temperature === undefined ? '' : String(fallback.temperature),
    maxTokens: fallback.maxTokens === undefined ? '' : String(fallback.maxTokens),
    customParameters: fallback.customParameters === undefined ? '' : customParametersText(fallback.customParameters),
  };
}

/** A new fallback row: the model to try, every setting the prompt's own. */
export function newFallback(llmModel: string): FallbackDraft {
  return { llmModel, temperature: '', maxTokens: '', customParameters: '' };
}

/** A fallback model as the API takes it (settings in a fixed order), or why the row is not one. */
export function parseFallback(row: FallbackDraft): { value: FallbackModel } | { error: string } {
  if (row.llmModel === '') return { error: 'Pick a model' };
  const value: FallbackModel = { llmModel: row.llmModel };
  if (row.temperature.trim() !== '') {
    const temperature = Number(row.temperature);
    if (!Number.isFinite(temperature) || temperature < 0 || temperature > TEMPERATURE_MAX)
      return { error: `Temperature: a number from 0 to ${TEMPERATURE_MAX}, or empty for the prompt's` };
    value.temperature = temperature;
  }
  if (row.maxTokens.trim() !== '') {
    const maxTokens = parseMaxTokens(row.maxTokens);
    if ('error' in maxTokens) return { error: `Max tokens: ${maxTokens.error}, or empty for the prompt's` };
    value.maxTokens = maxTokens.value;
  }
  if (row.customParameters.trim() !== '') {
    const parameters = parseCustomParameters(row.customParameters);
    if ('error' in parameters) return { error: `Custom parameters: ${parameters.error}` };
    value.customParameters = parameters.value;
  }
  return { value };
}

/** Fallback models in the fixed order of their settings, so that equal lists compare equal as text. */
function fallbackText(fallbacks: FallbackModel[]): string {
  return JSON.stringify(
    fallbacks.map(({ llmModel, temperature, maxTokens, customParameters }) => ({
      llmModel,
      temperature,
      maxTokens,
      customParameters,
    })),
  );
}

function fallbackSummary(fallbacks: FallbackModel[]): string {
  return fallbacks.length === 0 ? 'none' : fallbacks.map((fallback) => fallback.llmModel).join(', ');
}

function parsedFallbacks(draft: PromptDraft): FallbackModel[] {
  return draft.fallbackModels.flatMap((row) => {
    const parsed = parseFallback(row);
    return 'value' in parsed ? [parsed.value] : [];
  });
}

export function customParametersText(parameters: Record<string, unknown>): string {
  return Object.keys(parameters).length === 0 ? '{}' : JSON.stringify(parameters, null, 2);
}

/** The custom parameters as a JSON object, or why the text is not one. */
export function parseCustomParameters(text: string): { value: Record<string, unknown> } | { error: string } {
  if (text.trim() === '') return { value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { error: `Not valid JSON: ${messageOf(error)}` };
  }
  return isRecord(parsed) ? { value: parsed } : { error: 'Must be a JSON object, like {"top_p": 0.9}' };
}

/** Max tokens as a whole number within the API's bounds, or why not. */
export function parseMaxTokens(text: string): { value: number } | { error: string } {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < MAX_TOKENS_MIN || value > MAX_TOKENS_MAX) {
    return { error: `A whole number from ${MAX_TOKENS_MIN} to ${MAX_TOKENS_MAX.toLocaleString()}` };
  }
  return { value };
}

/** Problems that stop the draft from being sent, by setting. */
export interface DraftProblems {
  name?: string;
  maxTokens?: string;
  customParameters?: string;
  llmModel?: string;
  /** By row, as `Fallback model N: …`. */
  fallbackModels?: string;
}

export function draftProblems(draft: PromptDraft): DraftProblems {
  const problems: DraftProblems = {};
  if (draft.name.trim() === '') problems.name = 'A name is required';
  const maxTokens = parseMaxTokens(draft.maxTokens);
  if ('error' in maxTokens) problems.maxTokens = maxTokens.error;
  const parameters = parseCustomParameters(draft.customParameters);
  if ('error' in parameters) problems.customParameters = parameters.error;
  if (draft.llmModel === '') problems.llmModel = 'Pick a model';
  const fallbackProblems = draft.fallbackModels.flatMap((row, index) => {
    const parsed = parseFallback(row);
    return 'error' in parsed ? [`Fallback model ${index + 1}: ${parsed.error}`] : [];
  });
  if (fallbackProblems.length > 0) problems.fallbackModels = fallbackProblems.join(' ');
  return problems;
}

/** The body of a create or save: every content setting, parsed (call only when draftProblems is empty). */
export function contentOf(draft: PromptDraft) {
  const maxTokens = parseMaxTokens(draft.maxTokens);
  const parameters = parseCustomParameters(draft.customParameters);
  return {
    name: draft.name.trim(),
    template: draft.template,
    llmModel: draft.llmModel,
    temperature: draft.temperature,
    maxTokens: 'value' in maxTokens ? maxTokens.value : 1024,
    customParameters: 'value' in parameters ? parameters.value : {},
    retries: draft.retries,
    fallbackModels: parsedFallbacks(draft),
  };
}

/** One setting that differs between the saved prompt and the draft, as text for the reader. */
export interface SettingChange {
  setting: string;
  from: string;
  to: string;
}

export interface DraftChanges {
  name: SettingChange | null;
  template: boolean;
  settings: SettingChange[];
  /** Whether saving creates a new version (the template, model or a setting changed). */
  newVersion: boolean;
  any: boolean;
}

/** How the draft differs from the saved prompt. */
export function changesOf(saved: Prompt, draft: PromptDraft): DraftChanges {
  const settings: SettingChange[] = [];
  if (draft.llmModel !== saved.llmModel) settings.push({ setting: 'Model', from: saved.llmModel, to: draft.llmModel });
  if (draft.temperature !== saved.temperature)
    settings.push({ setting: 'Temperature', from: String(saved.temperature), to: String(draft.temperature) });
  if (draft.maxTokens.trim() !== String(saved.maxTokens))
    settings.push({ setting: 'Max tokens', from: String(saved.maxTokens), to: draft.maxTokens.trim() });
  const parameters = parseCustomParameters(draft.customParameters);
  const savedParameters = JSON.stringify(saved.customParameters);
  const draftParameters = 'value' in parameters ? JSON.stringify(parameters.value) : draft.customParameters;
  if (draftParameters !== savedParameters)
    settings.push({ setting: 'Custom parameters', from: savedParameters, to: draftParameters });
  if (draft.retries !== saved.retries)
    settings.push({ setting: 'Retries', from: String(saved.retries), to: String(draft.retries) });
  const fallbacks = parsedFallbacks(draft);
  if (fallbackText(fallbacks) !== fallbackText(saved.fallbackModels))
    settings.push({
      setting: 'Fallback models',
      from: fallbackSummary(saved.fallbackModels),
      to: fallbackSummary(fallbacks),
    });
  const template = draft.template !== saved.template;
  const name = draft.name.trim() !== saved.name ? { setting: 'Name', from: saved.name, to: draft.name.trim() } : null;
  const newVersion = template || settings.length > 0;
  return { name, template, settings, newVersion, any: newVersion || name !== null };
}

/** The PUT body: only what changed. */
export function updateOf(saved: Prompt, draft: PromptDraft, changeNotes: string) {
  const content = contentOf(draft);
  const changes = changesOf(saved, draft);
  return {
    ...(changes.name ? { name: content.name } : {}),
    ...(changes.template ? { template: content.template } : {}),
    ...(content.llmModel !== saved.llmModel ? { llmModel: content.llmModel } : {}),
    ...(content.temperature !== saved.temperature ? { temperature: content.temperature } : {}),
    ...(content.maxTokens !== saved.maxTokens ? { maxTokens: content.maxTokens } : {}),
    ...(JSON.stringify(content.customParameters) !== JSON.stringify(saved.customParameters)
      ? { customParameters: content.customParameters }
      : {}),
    ...(content.retries !== saved.retries ? { retries: content.retries } : {}),
    ...(fallbackText(content.fallbackModels) !== fallbackText(saved.fallbackModels)
      ? { fallbackModels: content.fallbackModels }
      : {}),
    ...(changeNotes.trim() ? { changeNotes: changeNotes.trim() } : {}),
  };
}
