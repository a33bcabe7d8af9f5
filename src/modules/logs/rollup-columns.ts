import { BUCKET_COUNT, BUCKET_STARTS } from './latency-histogram';

// The columns of the rollup tables, shared by the statements that write them and those that read them.

/** The histogram columns h0 … h144 (one per latency bucket). */
export const HISTOGRAM_COLUMNS = Array.from({ length: BUCKET_COUNT }, (_, i) => `h${i}`);
export const ROLLUP_KEY = 'tenant_id, span, start, endpoint_id, prompt_id';
/** The key of the tag rollups, in the order of their primary key. */
export const TAG_ROLLUP_KEY = 'tenant_id, tag_key, span, start, tag_value, endpoint_id';
/** The key of the tenant-wide tag rollups (the tag rollups summed over the endpoints), in the order of their primary key. */
export const TAG_VALUE_ROLLUP_KEY = 'tenant_id, tag_key, span, start, tag_value';
export const SUM_COLUMNS = ['calls', 'errors', 'cache_hits', 'input_tokens', 'output_tokens', 'cost_usd'];
/** The columns of a rollup row after its key. */
export const ROLLUP_VALUE_COLUMNS = [...SUM_COLUMNS, 'latency_max_ms', ...HISTOGRAM_COLUMNS].join(', ');
export const ROLLUP_COLUMNS = `${ROLLUP_KEY}, ${ROLLUP_VALUE_COLUMNS}`;
/** The latency bucket of a log row (bucket 0 starts at 0 ms, so the thresholds are the other buckets' starts). */
export const LATENCY_BUCKET = `width_bucket(latency_ms, '{${BUCKET_STARTS.slice(1).join(',')}}'::int[])`;
