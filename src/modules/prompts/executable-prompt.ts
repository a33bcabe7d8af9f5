// What execution needs to know about a prompt: its identity, state and the content of its latest version.
export type PromptStatus = 'Draft' | 'Live' | 'Archived';

import type { FallbackModel, VersionContent } from '../versions/version-compare';

export type { FallbackModel, VersionContent };

export interface ExecutablePrompt extends VersionContent {
  id: string;
  endpointId: string;
  name: string;
  slug: string;
  status: PromptStatus;
  version: number;
  /**
   * A test run's prompt given as unsaved text (its id and version stand for no row): logged with promptId and
   * promptVersion null.
   */
  unsaved?: true;
}
