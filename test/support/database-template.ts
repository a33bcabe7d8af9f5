import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../../src/database/data-source';
import { EmbeddedDatabase } from '../../src/database/embedded-database';
import { MIGRATIONS } from '../../src/database/migrations';

/** initdb takes seconds in PGlite; test apps load a migrated template instead (one per set of migrations and their SQL). */
export function templatePath(): string {
  const key = MIGRATIONS.map((m) => `${m.name}:${String(m.prototype.up)}`).join(',');
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return path.join(os.tmpdir(), `promptgate-test-template-${(hash >>> 0).toString(16)}-${MIGRATIONS.length}.tar.gz`);
}

export async function buildTemplate(): Promise<void> {
  const file = templatePath();
  if (fs.existsSync(file)) return;
  const embedded = EmbeddedDatabase.open('memory://');
  const dataSource = await new DataSource(dataSourceOptions({}, [], embedded)).initialize();
  await runMigrations(dataSource, {});
  await dataSource.destroy();
  const dump = await embedded.dumpDataDir();
  await embedded.close();
  const temporary = `${file}.${process.pid}`;
  fs.writeFileSync(temporary, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(temporary, file);
}

export function openTemplateDatabase(): EmbeddedDatabase {
  const bytes = fs.readFileSync(templatePath());
  return EmbeddedDatabase.open('memory://', new Blob([bytes]));
}
