import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type * as AppSetup from './app.setup';
import type * as Control from './cli/control-server';
import { ConfigError, loadConfig } from './config/app-config';
import { DataDirInUseError, EmbeddedDatabase } from './database/embedded-database';
import type * as TracingSetup from './tracing';

const SHUTDOWN_GRACE_MS = 30_000;

async function main(): Promise<void> {
  // Whatever the service creates (the data directory, its lock file, the CLI socket) is its user's only.
  process.umask(0o077);
  const config = loadConfig();
  // Tracing starts before the application is loaded: its instrumentations patch HTTP, node-postgres and the Redis
  // client as they are first required. Without OTEL_EXPORTER_OTLP_ENDPOINT none of it is loaded.
  const tracing = config.tracing ? (require('./tracing') as typeof TracingSetup).startTracing(config.tracing) : null;
  const { createApplication } = require('./app.setup') as typeof AppSetup;
  const { ControlServer } = require('./cli/control-server') as typeof Control;
  // Opened here, before Nest, so a data directory held by another process fails with a clear message.
  // Should the database thread end while the service runs (a crash), requests that need it answer 503 until restart.
  const embedded = config.databaseUrl
    ? null
    : EmbeddedDatabase.open(config.dataDir, undefined, (error) =>
        process.stderr.write(
          JSON.stringify({
            time: new Date().toISOString(),
            level: 'error',
            msg: `${error.message}; requests that need the database are answered 503 until the service is restarted`,
          }) + '\n',
        ),
      );
  let app: INestApplication;
  try {
    app = await createApplication({ config, embedded });
    await app.listen(config.port, config.host);
  } catch (error) {
    await embedded?.close().catch(() => undefined);
    throw error;
  }
  // Embedded mode: the CLI reaches this process through a socket in DATA_DIR instead of opening the database twice.
  const control = config.databaseUrl ? undefined : await ControlServer.start(app, config.dataDir);
  process.stdout.write(
    JSON.stringify({
      time: new Date().toISOString(),
      level: 'info',
      msg: `Promptgate listening on ${await app.getUrl()}`,
    }) + '\n',
  );

  // On SIGTERM or SIGINT: stop accepting connections, let the requests in flight finish (30 s at most), then write
  // every execution log still queued, close the database and exit 0. Nest's close runs them in that order: the HTTP
  // server closes once its requests have answered, and the database module flushes the logs before it disconnects.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(
      JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: `${signal}: shutting down` }) + '\n',
    );
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + 5_000).unref();
    // A keep-alive client could otherwise keep its connection busy, and the server open, for the whole grace period:
    // from now on every answer closes its connection (Fastify does so itself once closing; Node's server does not).
    (app.getHttpServer() as Server).prependListener('request', (_request, response) =>
      response.setHeader('Connection', 'close'),
    );
    await control?.close();
    await app.close();
    await tracing?.shutdown().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  const isExplained =
    error instanceof ConfigError ||
    error instanceof DataDirInUseError ||
    (error instanceof Error && (error as NodeJS.ErrnoException).code === 'EADDRINUSE');
  if (isExplained) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Promptgate failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
