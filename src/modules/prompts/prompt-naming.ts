export const PROMPT_NAME_MAX_LENGTH = 200;

/**
 * The name in lower case with every run of characters other than a-z and 0-9 turned into one `-`,
 * without a leading or trailing `-`. Empty when the name has no letter or digit.
 */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `name` with `suffix` appended, shortening the name so that the result still fits the name column. */
export function withSuffix(name: string, suffix: string): string {
  return `${name.slice(0, Math.max(1, PROMPT_NAME_MAX_LENGTH - suffix.length)).trimEnd()}${suffix}`;
}

/** A restored version becomes a new prompt named after the original with ` (v<N>)`. */
export function restoredName(name: string, versionNumber: number): string {
  return withSuffix(name, ` (v${versionNumber})`);
}

/** The first of `<name> (copy)`, `<name> (copy 2)`, … whose name and slug are both free. */
export function copyName(name: string, isTaken: (candidate: string) => boolean): string {
  for (let n = 1; ; n++) {
    const candidate = withSuffix(name, n === 1 ? ' (copy)' : ` (copy ${n})`);
    if (!isTaken(candidate)) return candidate;
  }
}
