/** A prompt as a traffic split needs to know it: its name and its status (`Draft`, `Live` or `Archived`). */
export interface SplitPrompt {
  name: string;
  status: string;
}

/**
 * The port through which the endpoints module checks a split's variants against the endpoint's prompts. The prompts
 * module provides it (prompts depend on endpoints, never the other way), and it runs inside the transaction that holds
 * the endpoint's row lock, the lock prompt transitions take first too: no variant can be demoted or archived between
 * the check and the write.
 */
export abstract class SplitPrompts {
  /** The prompts of the endpoint among `promptIds`, by id; ids of no prompt of this endpoint are absent. */
  abstract promptsOf(tenantId: string, endpointId: string, promptIds: string[]): Promise<Map<string, SplitPrompt>>;
}
