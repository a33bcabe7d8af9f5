import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { loadConfig } from '../config/app-config';
import { EndpointsService } from '../modules/endpoints/endpoints.service';
import { ExecutionLogsService } from '../modules/logs/execution-logs.service';
import { LogStatsService } from '../modules/logs/log-stats.service';
import { KeysService } from '../modules/keys/keys.service';
import { TenantsService } from '../modules/tenants/tenants.service';

const USAGE = `npm run seed:logs -- [--rows 1000000] [--endpoints 20] [--days 28] [--measure]

Fills execution_logs with synthetic rows for measuring the logs and stats queries at scale: a new tenant (with an
admin key, printed) gets 90% of the rows spread over its endpoints and the last --days days (keep it under
LOG_RETENTION_DAYS, or the retention sweep removes the oldest); a second tenant gets the
other 10%. Rows are generated inside the database (INSERT … SELECT generate_series), then VACUUM ANALYZE runs.
--measure then times the GET /logs and GET /stats service calls (median of 5 runs each).
Meant for PostgreSQL (DATABASE_URL); use a database of its own, not the one the tests use.`;

const CHUNK = 100_000;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '1000000' },
      endpoints: { type: 'string', default: '20' },
      days: { type: 'string', default: '28' },
      measure: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const rows = Number(values.rows);
  const endpointCount = Number(values.endpoints);
  const days = Number(values.days);
  if (![rows, endpointCount, days].every((n) => Number.isInteger(n) && n > 0))
    throw new Error(`Bad arguments.\n${USAGE}`);

  const config = loadConfig(process.env, { logLevel: 'warn' });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ config }), { logger: ['error'] });
  try {
    const db = app.get(DataSource);
    const suffix = randomUUID().slice(0, 8);
    const main = await createTenant(app, `logs-bench-${suffix}`, endpointCount);
    const noise = await createTenant(app, `logs-noise-${suffix}`, 2);
    const mainRows = Math.round(rows * 0.9);
    const started = Date.now();
    await insertRows(db, main, mainRows, days);
    await insertRows(db, noise, rows - mainRows, days);
    const inserted = Date.now();
    await db.query('VACUUM ANALYZE execution_logs');
    const [{ total }] = await db.query<{ total: number }[]>('SELECT count(*)::int AS total FROM execution_logs');
    process.stdout.write(
      [
        `Inserted ${rows} rows in ${((inserted - started) / 1000).toFixed(1)} s, VACUUM ANALYZE ${((Date.now() - inserted) / 1000).toFixed(1)} s; execution_logs now holds ${total} rows.`,
        `Tenant ${main.slug} (${mainRows} rows): admin key ${main.adminKey}`,
        `Endpoints: ${main.endpointIds.join(' ')}`,
        `Prompt ids (3 per endpoint), first: ${main.promptIds[0]}`,
      ].join('\n') + '\n',
    );
    if (values.measure) await measure(app, main);
  } finally {
    await app.close();
  }
}

interface SeedTenant {
  id: string;
  slug: string;
  adminKey: string;
  keyId: string;
  endpointIds: string[];
  promptIds: string[];
}

async function createTenant(
  app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>,
  slug: string,
  endpoints: number,
): Promise<SeedTenant> {
  const tenant = await app.get(TenantsService).create(slug, { plan: 'pro' });
  const key = await app
    .get(KeysService)
    .create(tenant.id, { name: 'logs bench', type: 'admin', permission: 'ReadWrite' });
  const endpointIds: string[] = [];
  for (let i = 0; i < endpoints; i++) {
    const endpoint = await app
      .get(EndpointsService)
      .create(tenant.id, { name: `Bench ${i}`, path: `/api/v1/bench-${i}` });
    endpointIds.push(endpoint.id);
  }
  return {
    id: tenant.id,
    slug,
    adminKey: key.key,
    keyId: key.id,
    endpointIds,
    promptIds: endpointIds.flatMap(() => [randomUUID(), randomUUID(), randomUUID()]),
  };
}

/**
 * Rows in time order (as a live service writes them) over the last `days` days: ~4% errors (three codes), ~5% test-page
 * and ~2% internal runs, 1 in 7 cached, latencies 50..1550 ms, detail fields a few hundred bytes.
 */
async function insertRows(db: DataSource, tenant: SeedTenant, count: number, days: number): Promise<void> {
  const spanSeconds = days * 86_400;
  for (let offset = 0; offset < count; offset += CHUNK) {
    const size = Math.min(CHUNK, count - offset);
    await db.query(
      `INSERT INTO execution_logs (tenant_id, endpoint_id, prompt_id, prompt_version, source, key_id, key_environment,
         request_id, status, http_status, error_code, cached, llm_model, input_tokens, output_tokens, cost_usd, latency_ms,
         created_at, inputs, rendered_prompt, raw_response, parsed_output, error_message)
       SELECT $1::uuid, ($2::uuid[])[1 + g % $3], ($4::uuid[])[1 + (g % $3) * 3 + (g / $3) % 3], 1 + (g / $3) % 3,
         CASE WHEN g % 19 = 7 THEN 'TestPage' WHEN g % 47 = 11 THEN 'Internal' ELSE 'Api' END,
         $5::uuid, CASE WHEN g % 19 = 7 THEN NULL ELSE 'live' END, 'seed-' || g,
         CASE WHEN g % 23 = 3 THEN 'error' ELSE 'success' END,
         CASE WHEN g % 23 = 3 THEN (CASE g % 3 WHEN 0 THEN 504 WHEN 1 THEN 502 ELSE 400 END) ELSE 200 END,
         CASE WHEN g % 23 = 3 THEN (CASE g % 3 WHEN 0 THEN 'timeout' WHEN 1 THEN 'upstream_error' ELSE 'validation_error' END) END,
         g % 7 = 0, 'gpt-4o-mini', 200 + g % 800, 50 + g % 300,
         ((200 + g % 800) * 0.15 + (50 + g % 300) * 0.6) / 1000000.0,
         50 + (random() * 1500)::int,
         now() - make_interval(secs => $6::float8 * (1 - g::float8 / $7)),
         jsonb_build_object('customer', 'Customer ' || g, 'message', repeat('lorem ipsum ', 8)),
         'You are a helpful assistant. Answer the customer: ' || repeat('lorem ipsum ', 12),
         '{"reply":"' || repeat('dolor sit amet ', 10) || '"}',
         jsonb_build_object('reply', repeat('dolor sit amet ', 10)),
         CASE WHEN g % 23 = 3 THEN 'The provider failed' END
       FROM generate_series($8::int, $9::int) AS g`,
      [
        tenant.id,
        tenant.endpointIds,
        tenant.endpointIds.length,
        tenant.promptIds,
        tenant.keyId,
        spanSeconds,
        count,
        offset,
        offset + size - 1,
      ],
    );
    process.stdout.write(`  ${tenant.slug}: ${offset + size}/${count}\n`);
  }
}

async function measure(
  app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>,
  tenant: SeedTenant,
): Promise<void> {
  const logs = app.get(ExecutionLogsService);
  const stats = app.get(LogStatsService);
  const endpoint = tenant.endpointIds[0];
  const now = Date.now();
  const lastDay = new Date(now - 86_400_000).toISOString();
  const cases: [string, () => Promise<unknown>][] = [
    ['GET /logs (no filter, page 1)', () => logs.list(tenant.id, {})],
    ['GET /logs?page=50', () => logs.list(tenant.id, { page: 50 })],
    ['GET /logs?endpointId', () => logs.list(tenant.id, { endpointId: endpoint })],
    ['GET /logs?source=Internal', () => logs.list(tenant.id, { source: 'Internal' })],
    ['GET /logs?status=error', () => logs.list(tenant.id, { status: 'error' })],
    ['GET /logs?promptId', () => logs.list(tenant.id, { promptId: tenant.promptIds[0] })],
    [
      'GET /logs?endpointId&status=error&source=TestPage',
      () => logs.list(tenant.id, { endpointId: endpoint, status: 'error', source: 'TestPage' }),
    ],
    ['GET /logs?from=(last 24 h)&endpointId', () => logs.list(tenant.id, { endpointId: endpoint, from: lastDay })],
    ['GET /stats?endpointId (7 days, day)', () => stats.stats(tenant.id, { endpointId: endpoint })],
    ['GET /stats?endpointId (24 h, hour)', () => stats.stats(tenant.id, { endpointId: endpoint, interval: 'hour' })],
    ['GET /stats (all endpoints, 24 h, hour)', () => stats.stats(tenant.id, { interval: 'hour' })],
    ['GET /stats (all endpoints, 7 days, day)', () => stats.stats(tenant.id, {})],
    [
      'GET /stats?endpointId (30 days, day)',
      () => stats.stats(tenant.id, { endpointId: endpoint, from: new Date(now - 30 * 86_400_000).toISOString() }),
    ],
  ];
  process.stdout.write('\nService-call times (ms, median of 5 after one warm-up):\n');
  for (const [name, run] of cases) {
    await run();
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    process.stdout.write(`  ${name.padEnd(52)} ${times[2].toFixed(1)}\n`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
