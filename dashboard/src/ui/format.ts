/** Display formats shared by every page. */

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A moment as formatDate gives it, or its time alone when it falls on the day of `now` (in the user's time zone). */
export function formatMoment(value: string, now: Date = new Date()): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const today = date.toDateString() === now.toDateString();
  return today ? date.toLocaleTimeString(undefined, { timeStyle: 'short' }) : formatDate(value);
}

export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return '—';
  if (usd === 0) return '$0';
  return usd < 0.01 ? `$${usd.toPrecision(2)}` : `$${usd.toFixed(4)}`;
}

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toLocaleString();
}

export function formatMs(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${Math.round(value)} ms`;
}

/** Price per million tokens. */
export function formatPricePerMillion(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `$${value}/M`;
}
