import fc from 'fast-check';

/**
 * How much the fuzz suite runs. CI uses the fixed seed and each property's own number of runs (a few thousand cases
 * in all); `FUZZ_RUNS=<n>` runs every property n times and `FUZZ_SEED=<n>` changes the seed, for long runs. A failure
 * prints its seed and counterexample path: `FUZZ_SEED=<seed> FUZZ_PATH=<path> npm run test:fuzz -- -t '<test name>'`
 * replays exactly that case.
 */
export const FUZZ_SEED = integerFromEnv('FUZZ_SEED') ?? 20261123;
const FUZZ_RUNS = integerFromEnv('FUZZ_RUNS');
const FUZZ_PATH = process.env.FUZZ_PATH?.trim() || undefined;

function integerFromEnv(name: string): number | undefined {
  const text = process.env[name]?.trim();
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, not ${JSON.stringify(text)}`);
  return value;
}

/** fast-check's parameters for a property whose CI budget is `defaultRuns` cases. */
export function fuzzParameters<T>(defaultRuns: number): fc.Parameters<T> {
  return {
    seed: FUZZ_SEED,
    numRuns: FUZZ_RUNS ?? defaultRuns,
    ...(FUZZ_PATH ? { path: FUZZ_PATH } : {}),
    // The assertion's own message (request and response) is part of the report, next to seed, path and counterexample.
    includeErrorInReport: true,
    // A failing case is shrunk, but every shrink step is an HTTP request: bound the whole run instead of each step.
    interruptAfterTimeLimit: FUZZ_RUNS ? undefined : 150_000,
    markInterruptAsFailure: false,
  };
}

/** Jest's time limit of one property: generous, since each case is one or a few HTTP requests. */
export const PROPERTY_TIMEOUT_MS = FUZZ_RUNS ? 24 * 3600_000 : 180_000;
