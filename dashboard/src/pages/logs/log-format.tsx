import { oneOf } from './time-range';

export const SOURCES = ['Api', 'TestPage', 'Internal'] as const;
const SOURCE_LABELS: Record<(typeof SOURCES)[number], string> = {
  Api: 'API',
  TestPage: 'Test runner',
  Internal: 'Internal (MCP)',
};

/** Where a call came from, in words. */
export function sourceLabel(source: string): string {
  const known = oneOf(source, SOURCES);
  return known ? SOURCE_LABELS[known] : source;
}

/** A call's outcome: the word and the HTTP status, coloured as well (never by colour alone). */
export function StatusBadge({ status, httpStatus }: { status: string; httpStatus: number }) {
  return <span className={`badge ${status === 'error' ? 'error' : 'ok'}`}>{`${status} ${httpStatus}`}</span>;
}
