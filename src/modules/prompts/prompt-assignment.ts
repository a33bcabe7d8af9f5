/** How an execution got its prompt: the endpoint's default, pinned (`?prompt=`, a test run's choice) or the split. */
export type PromptAssignment = 'default' | 'pinned' | 'split';
export const PROMPT_ASSIGNMENTS: PromptAssignment[] = ['default', 'pinned', 'split'];
