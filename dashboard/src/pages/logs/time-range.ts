/**
 * Time ranges travel in the route's query as ISO 8601 instants (UTC), so a shared link means the same period in every
 * time zone; the `datetime-local` inputs show and take them in the reader's local time.
 */

const pad = (value: number) => String(value).padStart(2, '0');

/** An ISO instant as a `datetime-local` value (local time, to the minute); '' when absent or not a date. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (read as local time) as an ISO instant; undefined when empty or incomplete. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The query value when it is a valid ISO instant, else undefined (a hand-edited link must not break the page). */
export function isoOrUndefined(value: string | null): string | undefined {
  if (!value) return undefined;
  return Number.isNaN(new Date(value).getTime()) ? undefined : value;
}

/** `value` when it is one of `allowed`, else undefined: a query parameter narrowed to the API's enum. */
export function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | undefined {
  return allowed.find((candidate) => candidate === value);
}

/** Date and time to the second, in the reader's time zone. */
export function formatTimestamp(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** Short date and time to the second, for table rows. */
export function formatShortTimestamp(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}
