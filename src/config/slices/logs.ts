import { defineSlice, int } from '../variable';

/** Execution logs and their statistics. */
export const logsSlice = defineSlice({
  variables: {
    LOG_RETENTION_DAYS: int(
      { min: 1 },
      {
        default: 30,
        meaning: 'Days execution logs are kept (at least 1).',
      },
    ),
    STATS_EXACT_PERCENTILE_ROWS: int(
      { min: 0 },
      {
        default: 20_000,
        meaning:
          '`GET /stats` computes latency percentiles exactly when the period holds at most this many executions; above it they are estimated from hourly latency histograms (see the stats section of the API guide).',
      },
    ),
    LOG_FIELD_MAX_BYTES: int(
      { min: 1024 },
      {
        default: 65_536,
        meaning:
          "Bytes kept of each logged field (`inputs`, `renderedPrompt`, `renderedMessages`, `rawResponse`, `parsedOutput`), at least 1024; a longer one is cut with a `…[truncated N bytes]` marker and listed in the log's `truncatedFields`.",
      },
    ),
  },
  config: (values) => ({
    logRetentionDays: values.LOG_RETENTION_DAYS,
    /**
     * GET /stats computes latency percentiles exactly from the logs when the period holds at most this many executions,
     * and estimates them from the hourly latency histograms above it.
     */
    statsExactPercentileRows: values.STATS_EXACT_PERCENTILE_ROWS,
    /** Each logged field (inputs, rendered prompt, raw response, parsed output) is cut to this many bytes of JSON. */
    logFieldMaxBytes: values.LOG_FIELD_MAX_BYTES,
  }),
});
