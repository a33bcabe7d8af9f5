import type { RollupErrorCodes, RollupFigures, RollupPiece } from './execution-log-rollups.repository';
import {
  type ErrorCodeRow,
  type PromptErrorCodeRow,
  type PromptStatsRow,
  type StatsInterval,
  type StatsRow,
  TAG_GROUPS,
  type TagErrorCodeRow,
  type TagStatsRow,
} from './execution-logs.repository';
import { type LatencyHistogram, addToHistogram, emptyHistogram, percentileOf } from './latency-histogram';
import { type RollupSums, emptySums } from './log-rollup';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const floorTo = (time: number, step: number) => Math.floor(time / step) * step;
const ceilTo = (time: number, step: number) => Math.ceil(time / step) * step;

/**
 * Splits [from, to) into what answers it: the partial hours at its edges from the log rows, the whole hours from the
 * hourly rollups, and (for daily buckets) the whole UTC days from the daily rollups. With `rowsFrom` (the earliest row
 * whose sums the rollups may not hold yet), everything from its hour on comes from the rows.
 */
export function planPieces(from: Date, to: Date, interval: StatsInterval, rowsFrom?: Date | null): RollupPiece[] {
  if (rowsFrom && rowsFrom < to) {
    const cut = floorTo(rowsFrom.getTime(), HOUR_MS);
    if (cut <= from.getTime()) return [{ source: 'logs', from, to }];
    return [...planPieces(from, new Date(cut), interval), { source: 'logs', from: new Date(cut), to }];
  }
  const start = from.getTime();
  const end = to.getTime();
  const firstHour = ceilTo(start, HOUR_MS);
  const lastHour = floorTo(end, HOUR_MS);
  if (firstHour >= lastHour) return [{ source: 'logs', from, to }];
  const pieces: RollupPiece[] = [];
  const add = (source: RollupPiece['source'], a: number, b: number) => {
    if (a < b) pieces.push({ source, from: new Date(a), to: new Date(b) });
  };
  add('logs', start, firstHour);
  const firstDay = ceilTo(firstHour, DAY_MS);
  const lastDay = floorTo(lastHour, DAY_MS);
  if (interval === 'day' && firstDay < lastDay) {
    add('hour', firstHour, firstDay);
    add('day', firstDay, lastDay);
    add('hour', lastDay, lastHour);
  } else add('hour', firstHour, lastHour);
  add('logs', lastHour, end);
  return pieces;
}

/** The earliest and latest instants a period without a bound stands for (no log row is older or newer). */
const EARLIEST = new Date(0);
const LATEST = new Date('9999-01-01T00:00:00Z');

/**
 * Splits the period of a log list, [from, to) with either bound possibly absent, into what counts its rows exactly, in
 * two parts: the period from the start of yesterday (UTC) on, then the period before it, so that a count that passes
 * its cap in the recent part need not read the older one. In each part, the rows before `retained` (the retention
 * cutoff, a whole hour: the sweep deletes those rows in batches before their rollups go, so only the rows themselves are
 * certain), the partial hours at its edges and the hours from `rowsFrom` on (rows whose tag sums may not be written
 * yet) come from the logs, the whole hours and days in between from the rollups.
 */
export function countPieces(
  from: Date | undefined,
  to: Date | undefined,
  retained: Date,
  now: Date,
  rowsFrom?: Date | null,
): { recent: RollupPiece[]; older: RollupPiece[] } {
  const start = from ?? EARLIEST;
  const end = to ?? LATEST;
  const yesterday = new Date(floorTo(now.getTime(), DAY_MS) - DAY_MS);
  return {
    recent: periodPieces(start > yesterday ? start : yesterday, end, retained, rowsFrom),
    older: periodPieces(start, end < yesterday ? end : yesterday, retained, rowsFrom),
  };
}

function periodPieces(start: Date, end: Date, retained: Date, rowsFrom?: Date | null): RollupPiece[] {
  if (start >= end) return [];
  if (end <= retained) return [{ source: 'logs', from: start, to: end }];
  if (start >= retained) return planPieces(start, end, 'day', rowsFrom);
  return [{ source: 'logs', from: start, to: retained }, ...planPieces(retained, end, 'day', rowsFrom)];
}

/**
 * The values of a tag key the groups name: the TAG_GROUPS with the most executions, ties by value (in code-point
 * order, as combineTagGroups orders them).
 */
export function topTagValues(counts: { tagValue: string; calls: number }[]): string[] {
  return [...counts]
    .sort((x, y) => y.calls - x.calls || (x.tagValue < y.tagValue ? -1 : x.tagValue > y.tagValue ? 1 : 0))
    .slice(0, TAG_GROUPS)
    .map((count) => count.tagValue);
}

interface Group extends RollupSums {
  latency: LatencyHistogram;
}

/** Executions of a group per bucket, per prompt and in total, with percentiles estimated from their histograms. */
export interface RolledUpStats {
  rows: StatsRow[];
  errorRows: ErrorCodeRow[];
  promptRows: PromptStatsRow[];
  promptErrorRows: PromptErrorCodeRow[];
}

/**
 * Adds the pieces' figures up per bucket, per prompt (executions with no prompt left out of the prompts) and in total,
 * in the shapes the raw queries answer. Counts, tokens and cost are exact; the percentiles come from the histograms.
 */
export function combineFigures(figures: RollupFigures[], errorCodes: RollupErrorCodes[]): RolledUpStats {
  const total = newGroup();
  const byBucket = new Map<number, Group>();
  const byPrompt = new Map<string, Group>();
  for (const row of figures) {
    addTo(total, row);
    const key = row.bucket.getTime();
    let bucket = byBucket.get(key);
    if (!bucket) byBucket.set(key, (bucket = newGroup()));
    addTo(bucket, row);
    if (row.promptId !== null) {
      let prompt = byPrompt.get(row.promptId);
      if (!prompt) byPrompt.set(row.promptId, (prompt = newGroup()));
      addTo(prompt, row);
    }
  }
  const errorRows = new Map<string, ErrorCodeRow>();
  const promptErrorRows = new Map<string, PromptErrorCodeRow>();
  for (const row of errorCodes) {
    const bucketKey = `${row.bucket.getTime()}|${row.errorCode}`;
    const bucketRow = errorRows.get(bucketKey);
    if (bucketRow) bucketRow.count += row.count;
    else errorRows.set(bucketKey, { bucket: row.bucket, errorCode: row.errorCode, count: row.count });
    if (row.promptId === null) continue;
    const promptKey = `${row.promptId}|${row.errorCode}`;
    const promptRow = promptErrorRows.get(promptKey);
    if (promptRow) promptRow.count += row.count;
    else promptErrorRows.set(promptKey, { promptId: row.promptId, errorCode: row.errorCode, count: row.count });
  }
  return {
    rows: [
      { bucket: null, ...figuresOf(total) },
      ...[...byBucket].map(([start, group]) => ({ bucket: new Date(start), ...figuresOf(group) })),
    ],
    errorRows: [...errorRows.values()],
    promptRows: [...byPrompt].map(([promptId, group]) => ({ promptId, ...figuresOf(group) })),
    promptErrorRows: [...promptErrorRows.values()],
  };
}

/**
 * The groups of a tag key from its figures per value (the tag rollups): the TAG_GROUPS values with the most executions
 * (ties by value) each on its own, and the rest (tagValue null): `all` (the figures of every execution the stats
 * count) less those values, which is the other values and the executions without the tag.
 */
export function combineTagGroups(
  figures: RollupFigures[],
  errorCodes: RollupErrorCodes[],
  all: { figures: RollupFigures[]; errorCodes: RollupErrorCodes[] },
): { rows: TagStatsRow[]; errorRows: TagErrorCodeRow[] } {
  const byValue = new Map<string, Group>();
  for (const row of figures) {
    if (row.tagValue === null) continue;
    let group = byValue.get(row.tagValue);
    if (!group) byValue.set(row.tagValue, (group = newGroup()));
    addTo(group, row);
  }
  const top = [...byValue]
    .sort(([a, x], [b, y]) => y.calls - x.calls || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, TAG_GROUPS);
  const named = new Set(top.map(([value]) => value));
  const rest = newGroup();
  for (const row of all.figures) addTo(rest, row);
  for (const [, group] of top) subtract(rest, group);
  const errorRows = new Map<string | null, Map<string, number>>();
  const count = (value: string | null, code: string, n: number) => {
    let codes = errorRows.get(value);
    if (!codes) errorRows.set(value, (codes = new Map<string, number>()));
    codes.set(code, (codes.get(code) ?? 0) + n);
  };
  for (const row of errorCodes)
    if (row.tagValue !== null && named.has(row.tagValue)) count(row.tagValue, row.errorCode, row.count);
  for (const row of all.errorCodes) count(null, row.errorCode, row.count);
  for (const [value, codes] of errorRows) {
    if (value === null) continue;
    for (const [code, n] of codes) count(null, code, -n);
  }
  return {
    rows: [
      ...top.map(([tagValue, group]) => ({ tagValue, ...figuresOf(group) })),
      { tagValue: null, ...figuresOf(rest) },
    ],
    errorRows: [...errorRows].flatMap(([tagValue, codes]) =>
      [...codes].filter(([, n]) => n > 0).map(([errorCode, n]) => ({ tagValue, errorCode, count: n })),
    ),
  };
}

/** Takes a part's sums out of a group's (the part's executions are among the group's). */
function subtract(group: Group, part: Group): void {
  group.calls -= part.calls;
  group.errors -= part.errors;
  group.cacheHits -= part.cacheHits;
  group.inputTokens -= part.inputTokens;
  group.outputTokens -= part.outputTokens;
  group.costNanos -= part.costNanos;
  for (let i = 0; i < group.latency.counts.length; i++) group.latency.counts[i] -= part.latency.counts[i];
}

function newGroup(): Group {
  return { ...emptySums(), latency: emptyHistogram() };
}

function addTo(group: Group, row: RollupFigures): void {
  group.calls += row.calls;
  group.errors += row.errors;
  group.cacheHits += row.cacheHits;
  group.inputTokens += row.inputTokens;
  group.outputTokens += row.outputTokens;
  group.costNanos += row.costNanos;
  addToHistogram(group.latency, row.latency);
}

function figuresOf(group: Group): Omit<StatsRow, 'bucket'> {
  return {
    calls: group.calls,
    errors: group.errors,
    cacheHits: group.cacheHits,
    p50: percentileOf(group.latency, 0.5),
    p95: percentileOf(group.latency, 0.95),
    inputTokens: group.inputTokens,
    outputTokens: group.outputTokens,
    // Exact: an integer count of billionths divided once, as the numeric sum's text would parse.
    costUsd: Number(group.costNanos) / 1e9,
  };
}
