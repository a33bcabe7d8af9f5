import 'reflect-metadata';
import { createApplication } from './app.setup';
import { ControlServer } from './cli/control-server';
import { ConfigError, loadConfig } from './config/app-config';
import { DataDirInUseError } from './database/embedded-database';

const SHUTDOWN_GRACE_MS = 30_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApplication({ config });
  await app.listen(config.port, config.host);
  // Embedded mode: the CLI reaches this process through a socket in DATA_DIR instead of opening the database twice.
  const control = config.databaseUrl ? undefined : await ControlServer.start(app, config.dataDir);
  process.stdout.write(
    JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: `Promptgate listening on ${await app.getUrl()}` }) + '\n',
  );

  // decisions.md §1: stop accepting, finish in-flight requests (30 s at most), flush logs, exit 0.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: `${signal}: shutting down` }) + '\n');
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + 5_000).unref();
    await control?.close();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Promptgate failed to start: ${error?.stack ?? error}\n`);
  }
  process.exit(1);
});
