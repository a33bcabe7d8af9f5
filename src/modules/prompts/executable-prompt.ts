// What execution needs to know about a prompt: its identity, state and the content of its latest version.
export type PromptStatus = 'Draft' | 'Live' | 'Archived';

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
}
