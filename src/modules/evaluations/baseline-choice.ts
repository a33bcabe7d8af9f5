import { isUUID } from 'class-validator';
import type { PromptVersionRef } from './eval-run';

/** What a run compares its candidate with: the endpoint's default, nothing, or a named prompt version. */
export type BaselineChoice = { kind: 'default' } | { kind: 'none' } | { kind: 'version'; version: PromptVersionRef };

/**
 * The `baseline` of a run's body: `default` (also when absent), `none`, or `{promptId, versionNumber}`; otherwise the
 * problem with it (a message naming the field), as a string.
 */
export function baselineChoiceOf(value: unknown): BaselineChoice | string {
  if (value === undefined || value === 'default') return { kind: 'default' };
  if (value === 'none') return { kind: 'none' };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return 'must be default, none or {promptId, versionNumber}';
  }
  const { promptId, versionNumber, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) return `.${extra[0]} should not exist`;
  if (typeof promptId !== 'string' || !isUUID(promptId, 'all')) return '.promptId must be a UUID';
  if (typeof versionNumber !== 'number' || !Number.isSafeInteger(versionNumber) || versionNumber < 1) {
    return '.versionNumber must be an integer of at least 1';
  }
  return { kind: 'version', version: { promptId, versionNumber } };
}
