import { defineSlice, int } from '../variable';

/** What a request may bring. */
export const httpSlice = defineSlice({
  variables: {
    MAX_IMAGE_BYTES: int(
      { min: 1 },
      {
        default: 5 * 1024 * 1024,
        docDefault: '`5242880` (5 MiB)',
        meaning: 'Largest decoded image input.',
      },
    ),
    MAX_BODY_BYTES: int(
      { min: 1 },
      {
        default: 10 * 1024 * 1024,
        docDefault: '`10485760` (10 MiB)',
        meaning: 'Largest execution request body; larger ones get 413.',
      },
    ),
    MAX_ADMIN_BODY_BYTES: int(
      { min: 1 },
      {
        default: 1024 * 1024,
        docDefault: '`1048576` (1 MiB)',
        meaning: 'Largest admin API and MCP request body; larger ones get 413.',
      },
    ),
    REQUEST_TIMEOUT_MS: int(
      { min: 1 },
      {
        default: 30_000,
        meaning: "Time a request's headers and body may take to arrive; a slower one is answered 408 and closed.",
      },
    ),
  },
  config: (values) => ({
    maxImageBytes: values.MAX_IMAGE_BYTES,
    maxBodyBytes: values.MAX_BODY_BYTES,
    /** Largest admin and MCP request body; larger bodies get 413. */
    maxAdminBodyBytes: values.MAX_ADMIN_BODY_BYTES,
    /** Time a request's headers and body may take to arrive before it is answered 408 and closed. */
    requestTimeoutMs: values.REQUEST_TIMEOUT_MS,
  }),
});
