import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { ConfigError, loadConfig } from '../config/app-config';
import { DataDirInUseError, EmbeddedDatabase } from '../database/embedded-database';
import { CliResult, isRemoteCommand, runCliCommand } from './cli-commands';
import { sendToRunningService } from './control-server';

/**
 * `npm run cli -- …`. With DATABASE_URL it opens PostgreSQL itself. In embedded mode it sends the command to the
 * running service over its control socket, or, when no service runs, opens the data directory itself.
 */
async function main(argv: string[]): Promise<number> {
  // A command for a running service's admin API (eval run --base-url) needs no database and no configuration.
  if (isRemoteCommand(argv)) return print(await runCliCommand(undefined, argv));
  // Opening the data directory itself, the CLI creates files there that must stay its user's only.
  process.umask(0o077);
  const config = loadConfig(process.env, { logLevel: 'warn' });
  let result: CliResult | undefined;
  if (!config.databaseUrl) result = await sendToRunningService(config.dataDir, argv);
  if (!result) {
    const holder = config.databaseUrl ? undefined : EmbeddedDatabase.holder(config.dataDir);
    if (holder !== undefined) {
      throw new Error(
        `The service (process ${holder}) holds ${config.dataDir} but its control socket does not answer; try again once it has started`,
      );
    }
    const app = await NestFactory.createApplicationContext(AppModule.forRoot({ config }), {
      logger: ['error'],
      abortOnError: false,
    });
    try {
      result = await runCliCommand(app, argv);
    } finally {
      await app.close();
    }
  }
  return print(result);
}

function print(result: CliResult): number {
  for (const line of result.stdout) process.stdout.write(`${line}\n`);
  for (const line of result.stderr) process.stderr.write(`${line}\n`);
  return result.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    const known = error instanceof ConfigError || error instanceof DataDirInUseError;
    process.stderr.write(`${known ? message : `Error: ${message}`}\n`);
    process.exit(1);
  },
);
