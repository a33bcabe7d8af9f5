// The inputs of an endpoint's recent calls, free of React: which logged calls give a row of the grid.

/** What the grid reads of a logged call (its detail): the inputs, what the log cut, and why it failed. */
export interface LoggedCall {
  id: string;
  inputs: unknown;
  truncatedFields: string[];
  errorCode: string | null;
}

/** Error codes of calls whose inputs the endpoint refused: running them again would only fail the same way. */
const REFUSED_INPUTS = new Set(['validation_error', 'payload_too_large']);

/** How many calls the grid reads at most to find distinct inputs (two pages of the logs). */
export const RECENT_CALLS_SCANNED = 100;

/**
 * The inputs of up to `count` calls, newest first as `calls` are, each distinct from the others and from `existing`
 * (the rows already in the grid). A call whose inputs the log cut, that are not an object, or that the endpoint
 * refused is skipped.
 */
export function recentInputsOf(
  calls: LoggedCall[],
  count: number,
  existing: Record<string, unknown>[] = [],
): { inputs: Record<string, unknown>; logId: string }[] {
  const seen = new Set(existing.map(canonicalJson));
  const picked: { inputs: Record<string, unknown>; logId: string }[] = [];
  for (const call of calls) {
    if (picked.length >= count) break;
    if (!usable(call)) continue;
    const inputs = call.inputs as Record<string, unknown>;
    const key = canonicalJson(inputs);
    if (seen.has(key)) continue;
    seen.add(key);
    picked.push({ inputs, logId: call.id });
  }
  return picked;
}

/** Whether a call, as the log list shows it (without its inputs), may give a row: its inputs whole and accepted. */
export function usableSummary(call: Omit<LoggedCall, 'inputs'>): boolean {
  return !call.truncatedFields.includes('inputs') && (call.errorCode === null || !REFUSED_INPUTS.has(call.errorCode));
}

function usable(call: LoggedCall): boolean {
  return usableSummary(call) && typeof call.inputs === 'object' && call.inputs !== null && !Array.isArray(call.inputs);
}

/** JSON with every object's keys in order, so equal inputs written in another order compare equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
