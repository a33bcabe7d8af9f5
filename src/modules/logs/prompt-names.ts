/**
 * The port through which the statistics name the prompts they group by. The prompts module provides it: prompts may
 * depend on logs, never the other way.
 */
export abstract class PromptNames {
  /** The names of the tenant's prompts among `ids` (archived ones included), by id; unknown ids are absent. */
  abstract namesOf(tenantId: string, ids: string[]): Promise<Map<string, string>>;
}
