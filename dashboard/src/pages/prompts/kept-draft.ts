import type { PromptDraft } from './prompt-draft';

/**
 * Unsaved editor changes are kept in the browser (localStorage) until they are saved or discarded, so a closed tab,
 * a reload or a page left by mistake does not lose them. One entry per prompt, with the version they were made on.
 */
const PREFIX = 'promptgate:prompt-draft:';

export interface KeptDraft {
  /** The prompt's version the changes were made on. */
  baseVersion: number;
  draft: PromptDraft;
}

/** The changes kept for the prompt, or null (none, or an entry this dashboard cannot read). */
export function keptDraftOf(promptId: string, storage: Storage = localStorage): KeptDraft | null {
  try {
    const kept = JSON.parse(storage.getItem(PREFIX + promptId) ?? 'null') as unknown;
    return isKeptDraft(kept) ? kept : null;
  } catch {
    return null;
  }
}

export function keepDraft(promptId: string, kept: KeptDraft, storage: Storage = localStorage): void {
  try {
    storage.setItem(PREFIX + promptId, JSON.stringify(kept));
  } catch {
    // A full or disabled storage keeps nothing: the page still warns before it is left.
  }
}

export function forgetDraft(promptId: string, storage: Storage = localStorage): void {
  storage.removeItem(PREFIX + promptId);
}

function isKeptDraft(value: unknown): value is KeptDraft {
  if (typeof value !== 'object' || value === null) return false;
  const { baseVersion, draft } = value as Partial<KeptDraft>;
  if (typeof baseVersion !== 'number' || typeof draft !== 'object' || draft === null) return false;
  const strings = ['name', 'template', 'llmModel', 'maxTokens', 'customParameters'] as const;
  return (
    strings.every((name) => typeof draft[name] === 'string') &&
    typeof draft.temperature === 'number' &&
    typeof draft.retries === 'number' &&
    Array.isArray(draft.fallbackModels)
  );
}
