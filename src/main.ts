import 'reflect-metadata';
import { processSignals } from './process-signals';
import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type * as AppSetup from './app.setup';
import type * as Control from './cli/control-server';
import type * as ListeningSockets from './common/http/listening-sockets';
import { AppLogger, asynchronousStdout } from './common/logging/app-logger';
import { ConfigError, loadConfig } from './config/app-config';
import { describeStorage, unknownVariableWarnings } from './config/config-report';
import { DataDirInUseError, EmbeddedDatabase } from './database/embedded-database';
import type * as Health from './modules/health/health.service';
import type * as TracingSetup from './tracing';

const SHUTDOWN_GRACE_MS = 30_000;

/** The logger once the configuration is read; what fails before it goes to standard error as plain text. */
let logger: AppLogger | undefined;

async function main(): Promise<void> {
  // Whatever the service creates (the data directory, its lock file, the CLI socket) is its user's only.
  process.umask(0o077);
  const config = loadConfig();
  const log = (logger = new AppLogger(config, asynchronousStdout()));
  for (const warning of unknownVariableWarnings(process.env)) log.write('warn', warning, { context: 'Config' });
  // A signal while the service starts: the step under way finishes, then what has started is closed and the process
  // exits 0, as a signal after the start would have it.
  processSignals.handle((signal) =>
    log.write('info', `${signal} during start-up: stopping once the current step has finished`),
  );
  const stoppedEarly = () => processSignals.pending !== undefined;

  // Tracing starts before the application is loaded: its instrumentations patch HTTP, node-postgres and the Redis
  // client as they are first required. Without OTEL_EXPORTER_OTLP_ENDPOINT none of it is loaded.
  const tracing = config.tracing ? (require('./tracing') as typeof TracingSetup).startTracing(config.tracing) : null;
  const { createApplication } = require('./app.setup') as typeof AppSetup;
  const { ControlServer } = require('./cli/control-server') as typeof Control;
  const { HealthService } = require('./modules/health/health.service') as typeof Health;
  // Opened here, before Nest, so a data directory held by another process fails with a clear message.
  // Should the database thread end while the service runs (a crash), requests that need it answer 503 until restart.
  const embedded = config.databaseUrl
    ? null
    : EmbeddedDatabase.open(config.dataDir, undefined, (error) =>
        log.write(
          'error',
          `${error.message}; requests that need the database are answered 503 until the service is restarted`,
        ),
      );
  let app: INestApplication;
  try {
    app = await createApplication({ config, embedded, logger: log });
    if (!stoppedEarly()) {
      const { listenOn } = require('./common/http/listening-sockets') as typeof ListeningSockets;
      await listenOn(app, { port: config.port, host: config.host, sockets: config.listenSockets });
    }
  } catch (error) {
    await embedded?.close().catch(() => undefined);
    throw error;
  }
  if (stoppedEarly()) {
    await app.close();
    await tracing?.shutdown().catch(() => undefined);
    return exit(0);
  }
  // Embedded mode: the CLI reaches this process through a socket in DATA_DIR instead of opening the database twice.
  const control = config.databaseUrl ? undefined : await ControlServer.start(app, config.dataDir);
  const storage = describeStorage(config);
  const where =
    storage.storage === 'embedded'
      ? `storage: embedded in ${storage.database}`
      : `storage: PostgreSQL at ${storage.database}`;
  const redis = storage.redis ? `Redis at ${storage.redis}` : 'no Redis';
  log.write('info', `Promptgate listening on ${await app.getUrl()} (${where}; ${redis})`, { ...storage });

  // On SIGTERM or SIGINT: readiness fails at once (load balancers take the instance out), the server keeps answering
  // for SHUTDOWN_DRAIN_MS while they notice, then stops accepting connections, lets the requests in flight finish
  // (30 s at most), writes every execution log still queued, closes the database and exits 0. Nest's close runs the
  // last steps in that order: the HTTP server closes once its requests have answered, and the database module flushes
  // the logs before it disconnects.
  let stopping = false;
  let endDrain: (() => void) | undefined;
  const stop = async (signal: string) => {
    // A second signal (Ctrl-C twice) ends the drain's wait.
    if (stopping) return endDrain?.();
    stopping = true;
    setTimeout(() => exit(1), config.shutdownDrainMs + SHUTDOWN_GRACE_MS + 5_000).unref();
    app.get(HealthService).beginShutdown();
    log.write('info', `${signal}: readiness fails; closing in ${config.shutdownDrainMs} ms`);
    await new Promise<void>((resolve) => {
      endDrain = resolve;
      setTimeout(resolve, config.shutdownDrainMs);
    });
    endDrain = undefined;
    log.write('info', `${signal}: shutting down`);
    // A keep-alive client could otherwise keep its connection busy, and the server open, for the whole grace period:
    // from now on every answer closes its connection (Fastify does so itself once closing; Node's server does not).
    (app.getHttpServer() as Server).prependListener('request', (_request, response) =>
      response.setHeader('Connection', 'close'),
    );
    await control?.close();
    await app.close();
    await tracing?.shutdown().catch(() => undefined);
    exit(0);
  };
  processSignals.handle((signal) => void stop(signal));
}

/** Exits once the log's last lines are written out. */
function exit(code: number): never {
  logger?.flush();
  process.exit(code);
}

function isExplained(error: unknown): error is Error {
  return (
    error instanceof ConfigError ||
    error instanceof DataDirInUseError ||
    (error instanceof Error && (error as NodeJS.ErrnoException).code === 'EADDRINUSE')
  );
}

main().catch((error: unknown) => {
  // What the log already holds goes out first; the reason the start failed is the last line, on standard error.
  logger?.flush();
  if (isExplained(error)) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Promptgate failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
