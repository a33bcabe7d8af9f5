import type {
  StatsBucketResponse,
  StatsFiguresResponse,
  StatsGroupResponse,
  StatsResponse,
  StatsTagGroupResponse,
  StatsTotalsResponse,
} from './dto/stats.response';
import type {
  ErrorCodeRow,
  PromptErrorCodeRow,
  PromptStatsRow,
  StatsInterval,
  StatsRow,
  TagErrorCodeRow,
  TagStatsRow,
} from './execution-logs.repository';

const STEP_MS: Record<StatsInterval, number> = { hour: 3_600_000, day: 86_400_000 };

/** Start of the UTC hour or day holding `time`. */
export function bucketStart(time: Date, interval: StatsInterval): Date {
  const step = STEP_MS[interval];
  return new Date(Math.floor(time.getTime() / step) * step);
}

/** Every bucket start from the one holding `from` up to, not including, `to`. */
export function bucketStarts(from: Date, to: Date, interval: StatsInterval): Date[] {
  const starts: Date[] = [];
  for (let t = bucketStart(from, interval).getTime(); t < to.getTime(); t += STEP_MS[interval])
    starts.push(new Date(t));
  return starts;
}

export function bucketCount(from: Date, to: Date, interval: StatsInterval): number {
  if (to <= from) return 0;
  return Math.ceil((to.getTime() - bucketStart(from, interval).getTime()) / STEP_MS[interval]);
}

/** Turns the SQL rows (totals row + per-bucket rows, errors per code and bucket) into the response, zero-filling gaps. */
export function buildStats(
  range: { endpointId: string | null; from: Date; to: Date; interval: StatsInterval },
  rows: StatsRow[],
  errorRows: ErrorCodeRow[],
): StatsResponse {
  const byBucket = new Map(rows.filter((r) => r.bucket).map((r) => [new Date(r.bucket!).getTime(), r]));
  const errorsByBucket = new Map<number, Record<string, number>>();
  const totalErrorsByCode: Record<string, number> = {};
  for (const row of errorRows) {
    const key = new Date(row.bucket).getTime();
    const codes = errorsByBucket.get(key) ?? {};
    codes[row.errorCode] = (codes[row.errorCode] ?? 0) + row.count;
    errorsByBucket.set(key, codes);
    totalErrorsByCode[row.errorCode] = (totalErrorsByCode[row.errorCode] ?? 0) + row.count;
  }
  const series: StatsBucketResponse[] = bucketStarts(range.from, range.to, range.interval).map((start) => ({
    start,
    ...figures(byBucket.get(start.getTime()), sortedCodes(errorsByBucket.get(start.getTime()) ?? {})),
  }));
  return {
    endpointId: range.endpointId,
    from: range.from,
    to: range.to,
    interval: range.interval,
    totals: totalsOf(
      rows.find((r) => r.bucket === null),
      totalErrorsByCode,
    ),
    series,
  };
}

/**
 * One group per prompt that ran in the period, with the same totals as the whole (most calls first, then by name);
 * `names` gives each prompt's name (null for one no longer known).
 */
export function buildPromptGroups(
  rows: PromptStatsRow[],
  errorRows: PromptErrorCodeRow[],
  names: Map<string, string>,
): StatsGroupResponse[] {
  const codesByPrompt = new Map<string, Record<string, number>>();
  for (const row of errorRows) {
    const codes = codesByPrompt.get(row.promptId) ?? {};
    codes[row.errorCode] = (codes[row.errorCode] ?? 0) + row.count;
    codesByPrompt.set(row.promptId, codes);
  }
  return rows
    .map((row) => ({
      promptId: row.promptId,
      promptName: names.get(row.promptId) ?? null,
      totals: totalsOf(row, codesByPrompt.get(row.promptId) ?? {}),
    }))
    .sort((a, b) => b.totals.calls - a.totals.calls || (a.promptName ?? '').localeCompare(b.promptName ?? ''));
}

/**
 * The groups of tag `key`: one per value named (most calls first, then by value), then the group of the rest (value
 * null: the other values and the executions without the tag).
 */
export function buildTagGroups(
  key: string,
  rows: TagStatsRow[],
  errorRows: TagErrorCodeRow[],
): StatsTagGroupResponse[] {
  const codesByValue = new Map<string | null, Record<string, number>>();
  for (const row of errorRows) {
    const codes = codesByValue.get(row.tagValue) ?? {};
    codes[row.errorCode] = (codes[row.errorCode] ?? 0) + row.count;
    codesByValue.set(row.tagValue, codes);
  }
  const named = rows
    .filter((row) => row.tagValue !== null)
    .sort((a, b) => b.calls - a.calls || (a.tagValue! < b.tagValue! ? -1 : a.tagValue! > b.tagValue! ? 1 : 0));
  const rest = rows.find((row) => row.tagValue === null);
  return [...named, rest].map((row) => ({
    tag: { key, value: row?.tagValue ?? null },
    totals: totalsOf(row, codesByValue.get(row?.tagValue ?? null) ?? {}),
  }));
}

function totalsOf(
  row: Omit<StatsRow, 'bucket'> | undefined,
  errorsByCode: Record<string, number>,
): StatsTotalsResponse {
  const totals = figures(row, sortedCodes(errorsByCode));
  return {
    ...totals,
    errorRate: totals.calls ? round(totals.errors / totals.calls, 4) : null,
    cacheHitRate: totals.calls ? round(totals.cacheHits / totals.calls, 4) : null,
  };
}

function figures(
  row: Omit<StatsRow, 'bucket'> | undefined,
  errorsByCode: Record<string, number>,
): StatsFiguresResponse {
  return {
    calls: row?.calls ?? 0,
    errors: row?.errors ?? 0,
    errorsByCode,
    cacheHits: row?.cacheHits ?? 0,
    latencyMs: {
      p50: row?.p50 === null || row?.p50 === undefined ? null : round(row.p50, 2),
      p95: row?.p95 === null || row?.p95 === undefined ? null : round(row.p95, 2),
    },
    inputTokens: row?.inputTokens ?? 0,
    outputTokens: row?.outputTokens ?? 0,
    costUsd: round(row?.costUsd ?? 0, 9),
  };
}

function sortedCodes(codes: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(codes).sort(([a], [b]) => a.localeCompare(b)));
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
