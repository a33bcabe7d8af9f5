import type { RollupErrorCodes, RollupFigures, RollupPiece } from './execution-log-rollups.repository';
import type {
  ErrorCodeRow,
  PromptErrorCodeRow,
  PromptStatsRow,
  StatsInterval,
  StatsRow,
} from './execution-logs.repository';
import { type LatencyHistogram, addToHistogram, emptyHistogram, percentileOf } from './latency-histogram';
import { type RollupSums, emptySums } from './log-rollup';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const floorTo = (time: number, step: number) => Math.floor(time / step) * step;
const ceilTo = (time: number, step: number) => Math.ceil(time / step) * step;

/**
 * Splits [from, to) into what answers it: the partial hours at its edges from the log rows, the whole hours from the
 * hourly rollups, and (for daily buckets) the whole UTC days from the daily rollups.
 */
export function planPieces(from: Date, to: Date, interval: StatsInterval): RollupPiece[] {
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
