import { defineSlice, int, matching, oneOf, text } from '../variable';

/** Where the service listens and how it logs and stops. */
export const serverSlice = defineSlice({
  variables: {
    PORT: int(
      { min: 0, max: 65535 },
      {
        default: 3000,
        meaning: 'HTTP port (0 to 65535).',
      },
    ),
    HOST: text({
      default: '0.0.0.0',
      meaning: 'Interface to listen on.',
    }),
    LISTEN_SOCKETS: int(
      { min: 1, max: 64 },
      {
        default: 8,
        meaning:
          "Listening sockets sharing `PORT` (1 to 64; always 1 on systems without `SO_REUSEPORT`, such as macOS and Windows). Each accepts one new connection per turn of the event loop, so under load one socket lets a client that keeps opening connections make every other client's new connection wait; see [connections](operations.md#new-connections-under-load).",
      },
    ),
    BASE_DOMAIN: matching(/^[a-z0-9.-]+$/i, 'BASE_DOMAIN must be a host name such as localhost or example.com', {
      default: 'localhost',
      meaning:
        "Requests whose `Host` is `<tenant>.<BASE_DOMAIN>[:port]` are on that tenant's host (see [tenant hosts](api.md#tenant-hosts)). A host name such as `api.example.com`.",
    }),
    LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error', 'silent'], {
      default: 'info',
      meaning:
        "`debug`, `info`, `warn`, `error` or `silent`. The service log is JSON lines on standard output, one per request (with its request id, method, path, status and duration) at `info`; headers, and so keys, are never logged. NestJS's route mapping and module lines are at `debug`. See [the service log](operations.md#the-service-log).",
    }),
    SHUTDOWN_DRAIN_MS: int(
      { min: 0, max: 600_000 },
      {
        default: 5_000,
        meaning:
          'On SIGTERM, time between readiness failing and the server closing, for load balancers to stop sending traffic (0 to 600000). See [shutdown](operations.md#shutdown).',
      },
    ),
    HTTP_ADAPTER: oneOf(['fastify', 'express'], {
      default: 'fastify',
      meaning:
        'The HTTP server under NestJS: `fastify` (measured faster, see [BENCHMARKS.md](../BENCHMARKS.md)) or `express`. Both are supported and tested; the API is the same.',
    }),
  },
  config: (values) => ({
    port: values.PORT,
    host: values.HOST,
    /** Listening sockets on the port (SO_REUSEPORT), each accepting one connection per turn of the event loop. */
    listenSockets: values.LISTEN_SOCKETS,
    baseDomain: values.BASE_DOMAIN.toLowerCase(),
    logLevel: values.LOG_LEVEL,
    /** Time between readiness failing on SIGTERM and the server closing, for load balancers to take the instance out. */
    shutdownDrainMs: values.SHUTDOWN_DRAIN_MS,
    httpAdapter: values.HTTP_ADAPTER,
  }),
});
