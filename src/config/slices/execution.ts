import { defineSlice, int } from '../variable';

/** Rendering, image calls and event streams of an execution. */
export const executionSlice = defineSlice({
  variables: {
    RENDER_TIMEOUT_MS: int(
      { min: 1 },
      {
        default: 100,
        meaning:
          'Time one prompt template may take to render; a slower one fails the execution with 422 `prompt_error`.',
      },
    ),
    MAX_RENDERED_PROMPT_BYTES: int(
      { min: 1 },
      {
        default: 1024 * 1024,
        docDefault: '`1048576` (1 MiB)',
        meaning: 'Largest rendered prompt; a larger one fails the execution with 422 `prompt_error`.',
      },
    ),
    RENDER_QUEUE_MAX: int(
      { min: 1, max: 100_000 },
      {
        default: 256,
        meaning:
          'Renders that may wait for a render thread, all tenants together; past it the tenant holding the most places in the queue gets 503 `overloaded` (see [shared capacity](operations.md#shared-capacity-and-its-bounds)).',
      },
    ),
    MAX_IMAGES_PER_CALL: int(
      { min: 1, max: 100 },
      {
        default: 4,
        meaning: "Largest `n` (images per call) an image prompt's `customParameters` may ask for (1 to 100).",
      },
    ),
    STREAM_WRITE_TIMEOUT_MS: int(
      { min: 1 },
      {
        default: 30_000,
        meaning:
          "Time an event stream waits on a client that reads nothing of it (its connection's buffer full, or the rest of an answer already complete waiting in it) before the stream is closed and its provider call stopped; logged as `client_closed` unless the answer was complete.",
      },
    ),
    EVAL_MAX_CONCURRENCY: int(
      { min: 1, max: 100 },
      {
        default: 8,
        meaning:
          "Calls of one tenant's evaluation runs that may be in flight at once on an instance (1 to 100), whatever each run's own `concurrency`.",
      },
    ),
  },
  config: (values) => ({
    /** Wall-clock budget of one template render. */
    renderTimeoutMs: values.RENDER_TIMEOUT_MS,
    /** Largest rendered prompt, in bytes of UTF-8. */
    maxRenderedPromptBytes: values.MAX_RENDERED_PROMPT_BYTES,
    /** Renders that may wait for a render thread (all tenants); past it the tenant holding most of the queue gets 503. */
    renderQueueMax: values.RENDER_QUEUE_MAX,
    /** Largest `n` an image prompt may ask for in one call. */
    maxImagesPerCall: values.MAX_IMAGES_PER_CALL,
    /** An event stream whose client reads nothing for this long, while more waits to be sent, is closed. */
    streamWriteTimeoutMs: values.STREAM_WRITE_TIMEOUT_MS,
    /** Calls of one tenant's evaluation runs in flight at once on this instance. */
    evalMaxConcurrency: values.EVAL_MAX_CONCURRENCY,
  }),
});
