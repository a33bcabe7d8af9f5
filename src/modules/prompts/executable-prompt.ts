// What execution needs to know about a prompt: its identity, state and the content of its latest version.
export type PromptStatus = 'Draft' | 'Live' | 'Archived';

import type { FallbackModel } from '../versions/version-compare';

export type { FallbackModel };

export interface ExecutablePrompt {
  id: string;
  endpointId: string;
  name: string;
  slug: string;
  status: PromptStatus;
  version: number;
  template: string;
  llmModel: string;
  temperature: number;
  maxTokens: number;
  customParameters: Record<string, unknown>;
  /** How many more times each model is tried after a failure that fails over (0–3). */
  retries: number;
  /** Tried in order once the prompt's own model has failed (at most 3). */
  fallbackModels: FallbackModel[];
}
