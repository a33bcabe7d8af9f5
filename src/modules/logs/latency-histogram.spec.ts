import {
  BUCKET_COUNT,
  BUCKET_STARTS,
  MAX_RELATIVE_ERROR,
  type LatencyHistogram,
  addToHistogram,
  bucketOf,
  emptyHistogram,
  percentileOf,
} from './latency-histogram';

/** percentile_cont over the sorted values, as PostgreSQL computes it. */
function exactPercentile(sorted: number[], fraction: number): number {
  const rank = fraction * (sorted.length - 1);
  const below = Math.floor(rank);
  if (below === rank) return sorted[below];
  return sorted[below] + (rank - below) * (sorted[below + 1] - sorted[below]);
}

function histogramOf(values: number[]): LatencyHistogram {
  const histogram = emptyHistogram();
  for (const value of values) {
    histogram.counts[bucketOf(value)]++;
    histogram.maxMs = Math.max(histogram.maxMs, value);
  }
  return histogram;
}

/** A deterministic generator (mulberry32), so the distributions are the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('latency histogram buckets', () => {
  it('start at 0 ms, one value each up to 16 ms, then about 9% apart up to about 17.5 minutes', () => {
    expect(BUCKET_STARTS.slice(0, 18)).toEqual([...Array.from({ length: 17 }, (_, i) => i), 18]);
    expect(BUCKET_COUNT).toBe(145);
    expect(BUCKET_STARTS[BUCKET_COUNT - 1]).toBe(2 ** 20);
    expect(MAX_RELATIVE_ERROR).toBeGreaterThan(0.09);
    expect(MAX_RELATIVE_ERROR).toBeLessThan(0.0906);
  });

  it('put each latency in the bucket whose range holds it', () => {
    for (let ms = 0; ms < 2 ** 20 + 1000; ms += ms < 5000 ? 1 : 997) {
      const bucket = bucketOf(ms);
      expect(BUCKET_STARTS[bucket]).toBeLessThanOrEqual(ms);
      if (bucket + 1 < BUCKET_COUNT) expect(BUCKET_STARTS[bucket + 1]).toBeGreaterThan(ms);
    }
  });
});

describe('percentileOf', () => {
  it('answers null for no executions and exact values for latencies up to 16 ms', () => {
    expect(percentileOf(emptyHistogram(), 0.5)).toBeNull();
    const values = [0, 1, 3, 3, 7, 12, 16];
    const histogram = histogramOf(values);
    expect(percentileOf(histogram, 0.5)).toBe(3);
    expect(percentileOf(histogram, 0.95)).toBeCloseTo(exactPercentile(values, 0.95), 9);
  });

  it('stays within the documented relative error on skewed, uniform, bimodal and tiny samples', () => {
    const next = random(18);
    const samples: Record<string, number[]> = {
      lognormal: Array.from({ length: 50_000 }, () =>
        Math.round(Math.exp(6 + 0.8 * Math.sqrt(-2 * Math.log(next() || 1e-9)) * Math.cos(2 * Math.PI * next()))),
      ),
      uniform: Array.from({ length: 20_000 }, () => 50 + Math.round(next() * 1500)),
      bimodal: Array.from({ length: 30_000 }, () =>
        next() < 0.9 ? 5 + Math.round(next() * 20) : 20_000 + Math.round(next() * 40_000),
      ),
      tiny: [100, 200, 300, 400, 1000, 2000],
      slow: Array.from({ length: 1000 }, () => 600_000 + Math.round(next() * 400_000)),
    };
    for (const [name, values] of Object.entries(samples)) {
      const sorted = [...values].sort((a, b) => a - b);
      const histogram = histogramOf(values);
      for (const fraction of [0, 0.01, 0.5, 0.9, 0.95, 0.99, 1]) {
        const exact = exactPercentile(sorted, fraction);
        const estimate = percentileOf(histogram, fraction)!;
        const error = Math.abs(estimate - exact) / Math.max(exact, 1);
        if (error > MAX_RELATIVE_ERROR) throw new Error(`${name} p${fraction * 100}: ${estimate} vs ${exact}`);
      }
    }
  });

  it('gives the same answer for merged histograms as for one built from all the values', () => {
    const next = random(7);
    const parts = [0, 1, 2].map(() => Array.from({ length: 3000 }, () => Math.round(next() * 5000)));
    const merged = emptyHistogram();
    for (const part of parts) addToHistogram(merged, histogramOf(part));
    const whole = histogramOf(parts.flat());
    expect(merged).toEqual(whole);
    expect(percentileOf(merged, 0.95)).toBe(percentileOf(whole, 0.95));
  });
});
