/**
 * Latency histograms: how the statistics estimate percentiles over periods too large to sort every latency.
 *
 * Latencies are whole milliseconds. Buckets 0..16 hold one value each (0 ms to 16 ms); above that each bucket starts
 * 2^(1/8) (about 9%) above the previous one, rounded up to a whole millisecond, up to about 17.5 minutes; the last
 * bucket is open and ends at the largest latency seen. A percentile is located in its bucket by rank and placed inside
 * it by linear interpolation, so the estimate and the exact value lie in the same bucket: its error is at most the
 * bucket's width, which is at most MAX_RELATIVE_ERROR of the value (single-value buckets are exact).
 */

/** BUCKET_STARTS[i] is the smallest latency bucket i holds; bucket i holds [BUCKET_STARTS[i], BUCKET_STARTS[i + 1]). */
export const BUCKET_STARTS: readonly number[] = (() => {
  const starts: number[] = [];
  for (let ms = 0; ms <= 16; ms++) starts.push(ms);
  for (let step = 33; ; step++) {
    const start = Math.ceil(2 ** (step / 8));
    if (start > 2 ** 20) break;
    if (start > starts[starts.length - 1]) starts.push(start);
  }
  return starts;
})();

export const BUCKET_COUNT = BUCKET_STARTS.length;

/** The largest (width - 1) / start of a closed bucket: how far an estimate can be from the exact percentile. */
export const MAX_RELATIVE_ERROR = BUCKET_STARTS.slice(1, -1).reduce(
  (max, start, i) => Math.max(max, (BUCKET_STARTS[i + 2] - 1 - start) / start),
  0,
);

/** The bucket a latency falls in (the same answer as SQL's width_bucket(latency, BUCKET_STARTS[1:])). */
export function bucketOf(latencyMs: number): number {
  let low = 0;
  let high = BUCKET_COUNT - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (BUCKET_STARTS[mid] <= latencyMs) low = mid;
    else high = mid - 1;
  }
  return low;
}

export interface LatencyHistogram {
  /** Executions per bucket (BUCKET_COUNT entries). */
  counts: number[];
  /** The largest latency counted (closes the open last bucket); 0 when empty. */
  maxMs: number;
}

export function emptyHistogram(): LatencyHistogram {
  return { counts: new Array<number>(BUCKET_COUNT).fill(0), maxMs: 0 };
}

export function addToHistogram(into: LatencyHistogram, other: LatencyHistogram): void {
  for (let i = 0; i < BUCKET_COUNT; i++) into.counts[i] += other.counts[i];
  into.maxMs = Math.max(into.maxMs, other.maxMs);
}

/**
 * The estimate of percentile_cont(fraction): like it, the value at rank fraction × (n - 1) among the n sorted
 * latencies, interpolated between the two ranks around it. Each of those two values is estimated inside the bucket that
 * holds it, the c values of a bucket holding lo … hi - 1 taken as spread evenly over it (rank j of the bucket at
 * lo + (j + 0.5) × (hi - 1 - lo) / c, so a single-value bucket answers its value exactly). Null when empty.
 */
export function percentileOf(histogram: LatencyHistogram, fraction: number): number | null {
  const total = histogram.counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = fraction * (total - 1);
  const below = Math.floor(rank);
  const low = valueAtRank(histogram, below);
  if (rank === below) return low;
  return low + (rank - below) * (valueAtRank(histogram, below + 1) - low);
}

/** The estimate of the latency at 0-based rank `rank` (an integer below the histogram's total). */
function valueAtRank(histogram: LatencyHistogram, rank: number): number {
  let before = 0;
  for (let i = 0; i < BUCKET_COUNT; i++) {
    const count = histogram.counts[i];
    if (rank < before + count) {
      const low = BUCKET_STARTS[i];
      const next = i + 1 < BUCKET_COUNT ? BUCKET_STARTS[i + 1] : Infinity;
      const high = Math.max(low + 1, Math.min(next, histogram.maxMs + 1));
      return low + ((rank - before + 0.5) * (high - 1 - low)) / count;
    }
    before += count;
  }
  return histogram.maxMs;
}
