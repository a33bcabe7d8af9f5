import { ValidationError } from '../errors/app-error';

/** The deepest nesting of objects and arrays a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value` nests objects and arrays more than `maxDepth` levels (a scalar is depth 0, `{}` and `[]` are 1,
 * `{"a": []}` is 2). The walk keeps its own stack instead of recursing, so no depth can overflow the call stack, and
 * it stops at the first container past the limit.
 */
export function exceedsJsonDepth(value: unknown, maxDepth: number = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const pending: object[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return true;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        pending.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * Refuses a parsed request body nested deeper than MAX_JSON_DEPTH, right after parsing and before anything walks it
 * recursively (validation, cache keys, logs, MCP arguments): a 400 with no field.
 */
export function assertJsonDepth(body: unknown): void {
  if (exceedsJsonDepth(body)) {
    throw new ValidationError(`Request body is nested deeper than ${MAX_JSON_DEPTH} levels`, null);
  }
}
