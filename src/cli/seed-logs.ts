import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { loadConfig } from '../config/app-config';
import { EndpointsService } from '../modules/endpoints/endpoints.service';
import { ExecutionLogRollupsRepository } from '../modules/logs/execution-log-rollups.repository';
import { ExecutionLogReadsService } from '../modules/logs/execution-log-reads.service';
import { LogStatsService } from '../modules/logs/log-stats.service';
import { KeysService } from '../modules/keys/keys.service';
import { scoreRollupSelectSql } from '../modules/scores/score-rollups.repository';
import { TenantsService } from '../modules/tenants/tenants.service';

const USAGE = `npm run seed:logs -- [--rows 1000000] [--endpoints 20] [--days 28] [--measure] [--json] [--cleanup]

Fills execution_logs with synthetic rows for measuring the logs and stats queries at scale: a new tenant (with an
admin key, printed) gets 90% of the rows spread over its endpoints and the last --days days (keep it under
LOG_RETENTION_DAYS, or the retention sweep removes the oldest); a second tenant gets the
other 10%. Rows are generated inside the database (INSERT … SELECT generate_series, chunks on parallel connections),
their hourly and daily rollups are summed from them as the log writer would have; a third of the tenant's rows get a
feedback score \`helpful\` (a ninth \`rating\` too), with their hourly sums; then VACUUM ANALYZE runs.
--measure then times the GET /logs and GET /stats service calls (median of 5 runs each).
--json prints one JSON line instead (row count, seeding times and the main timings, which it implies).
--cleanup deletes the two tenants, with their rows and rollups, at the end.
Meant for PostgreSQL (DATABASE_URL); use a database of its own, not the one the tests use.`;

const CHUNK = 100_000;
/** Chunks inserted at once, each on its own connection of the pool. */
const PARALLEL_CHUNKS = 3;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '1000000' },
      endpoints: { type: 'string', default: '20' },
      days: { type: 'string', default: '28' },
      measure: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      cleanup: { type: 'boolean', default: false },
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
  const say = (text: string) => (values.json ? process.stderr : process.stdout).write(`${text}\n`);
  const tenants: SeedTenant[] = [];
  try {
    const db = app.get(DataSource);
    const suffix = randomUUID().slice(0, 8);
    const main = await createTenant(app, `logs-bench-${suffix}`, endpointCount);
    tenants.push(main);
    const noise = await createTenant(app, `logs-noise-${suffix}`, 2);
    tenants.push(noise);
    const mainRows = Math.round(rows * 0.9);
    const started = Date.now();
    await insertRows(db, main, mainRows, days, say);
    await insertRows(db, noise, rows - mainRows, days, say);
    const inserted = Date.now();
    await app.get(ExecutionLogRollupsRepository).buildFromLogs([main.id, noise.id]);
    await insertScores(db, main, say);
    const rolledUp = Date.now();
    await db.query('VACUUM ANALYZE execution_logs');
    await db.query('VACUUM ANALYZE execution_log_rollups');
    await db.query('VACUUM ANALYZE execution_log_error_rollups');
    await db.query('VACUUM ANALYZE execution_log_tag_rollups');
    await db.query('VACUUM ANALYZE execution_log_tag_error_rollups');
    await db.query('VACUUM ANALYZE execution_scores');
    await db.query('VACUUM ANALYZE execution_score_rollups');
    const vacuumed = Date.now();
    const seconds = (from: number, to: number) => Math.round((to - from) / 100) / 10;
    const timings = {
      insertS: seconds(started, inserted),
      rollupsS: seconds(inserted, rolledUp),
      vacuumS: seconds(rolledUp, vacuumed),
    };
    say(
      [
        `Inserted ${rows} rows in ${timings.insertS} s, rollups ${timings.rollupsS} s, VACUUM ANALYZE ${timings.vacuumS} s.`,
        `Tenant ${main.slug} (${mainRows} rows): admin key ${main.adminKey}`,
        `Endpoints: ${main.endpointIds.join(' ')}`,
        `Prompt ids (3 per endpoint), first: ${main.promptIds[0]}`,
      ].join('\n'),
    );
    if (values.measure || values.json) {
      const ms = await measure(app, main, say);
      if (values.json) process.stdout.write(`${JSON.stringify({ rows, ...timings, ms })}\n`);
    }
  } finally {
    if (values.cleanup && tenants.length) {
      // Endpoints, logs and rollups go with their tenant (ON DELETE CASCADE).
      await app.get(DataSource).query('DELETE FROM tenants WHERE id = ANY($1::uuid[])', [tenants.map((t) => t.id)]);
      say(`Deleted tenants ${tenants.map((t) => t.slug).join(', ')} and their rows.`);
    }
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
 * and ~2% internal runs, 1 in 7 cached, latencies 50..1550 ms, detail fields a few hundred bytes. Tags: 80% of the rows
 * have `team` (8 values), 40% `customer` (1,000 values, the low numbers far more frequent), 8% `feature` (5 values);
 * 20% have none.
 */
async function insertRows(
  db: DataSource,
  tenant: SeedTenant,
  count: number,
  days: number,
  say: (text: string) => void,
): Promise<void> {
  const spanSeconds = days * 86_400;
  const offsets: number[] = [];
  for (let offset = 0; offset < count; offset += CHUNK) offsets.push(offset);
  let done = 0;
  const insertChunk = async (offset: number) => {
    const size = Math.min(CHUNK, count - offset);
    await db.query(
      `INSERT INTO execution_logs (tenant_id, endpoint_id, prompt_id, prompt_version, source, key_id, key_environment,
         request_id, status, http_status, error_code, cached, llm_model, input_tokens, output_tokens, cost_usd, latency_ms,
         created_at, inputs, rendered_prompt, raw_response, parsed_output, error_message, tags)
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
         CASE WHEN g % 23 = 3 THEN 'The provider failed' END,
         CASE WHEN g % 5 = 4 THEN '{}'::jsonb ELSE jsonb_strip_nulls(jsonb_build_object(
           'team', 'team-' || g % 8,
           'customer', CASE WHEN g % 2 = 0 THEN 'cust-' || floor(power(random(), 3) * 1000)::int END,
           'feature', CASE WHEN g % 10 = 1 THEN 'feature-' || g % 5 END)) END
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
    done += size;
    say(`  ${tenant.slug}: ${done}/${count}`);
  };
  for (let i = 0; i < offsets.length; i += PARALLEL_CHUNKS)
    await Promise.all(offsets.slice(i, i + PARALLEL_CHUNKS).map(insertChunk));
}

/** Feedback scores seeded on the main tenant's rows: a third of them get `helpful`, a ninth `rating` as well. */
const SCORED_EVERY = 3;

/**
 * Scores on the main tenant's log rows, as applications would record them: `helpful` (boolean) on every third row
 * (300,000 of 1,000,000 rows seeded), the prompts' shares of true 60 %, 70 % and 80 % by their place in the endpoint;
 * `rating` (numeric 1 to 5) on every ninth row; then their hourly sums, as recording them would have kept.
 */
async function insertScores(db: DataSource, tenant: SeedTenant, say: (text: string) => void): Promise<void> {
  const configs = await db.query<{ id: string; name: string }[]>(
    `INSERT INTO score_configs (tenant_id, name, data_type, minimum, maximum)
     VALUES ($1, 'helpful', 'boolean', NULL, NULL), ($1, 'rating', 'numeric', 1, 5) RETURNING id, name`,
    [tenant.id],
  );
  const configId = (name: string) => configs.find((config) => config.name === name)!.id;
  const scoreRows = (name: string, every: number, value: string) =>
    db.query(
      `INSERT INTO execution_scores (tenant_id, log_id, endpoint_id, prompt_id, prompt_version, key_id, executed_at,
         name, config_id, data_type, value_number, source)
       SELECT l.tenant_id, l.id, l.endpoint_id, l.prompt_id, l.prompt_version, l.key_id, l.created_at, $2, $3,
         (SELECT data_type FROM score_configs WHERE id = $3), ${value}, 'api'
       FROM (SELECT *, row_number() OVER (ORDER BY created_at) AS n, array_position($4::uuid[], prompt_id) AS p
             FROM execution_logs WHERE tenant_id = $1) l
       WHERE l.n % $5 = 0`,
      [tenant.id, name, configId(name), tenant.promptIds, every],
    );
  // The prompt's place among its endpoint's three (p % 3) sets its share of true: 60, 70 or 80 %.
  await scoreRows('helpful', SCORED_EVERY, `CASE WHEN random() < 0.6 + 0.1 * (l.p % 3) THEN 1 ELSE 0 END`);
  await scoreRows('rating', SCORED_EVERY * 3, `1 + floor(random() * 5)`);
  await db.query(
    `INSERT INTO execution_score_rollups (tenant_id, endpoint_id, prompt_id, hour, name, category, count, sum,
       sum_of_squares)
     ${scoreRollupSelectSql('s.tenant_id = $1')}`,
    [tenant.id],
  );
  say(`  ${tenant.slug}: scores seeded`);
}

/** The service-call times, in ms (median of 5 after one warm-up), keyed by a short name. */
async function measure(
  app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>,
  tenant: SeedTenant,
  say: (text: string) => void,
): Promise<Record<string, number>> {
  const logs = app.get(ExecutionLogReadsService);
  const stats = app.get(LogStatsService);
  const endpoint = tenant.endpointIds[0];
  const now = Date.now();
  const lastDay = new Date(now - 86_400_000).toISOString();
  const cases: [string, string, () => Promise<unknown>][] = [
    ['logsPage', 'GET /logs (no filter, page 1)', () => logs.list(tenant.id, {})],
    ['logsPage50', 'GET /logs?page=50', () => logs.list(tenant.id, { page: 50 })],
    ['logsEndpoint', 'GET /logs?endpointId', () => logs.list(tenant.id, { endpointId: endpoint })],
    ['logsInternal', 'GET /logs?source=Internal', () => logs.list(tenant.id, { source: 'Internal' })],
    ['logsErrors', 'GET /logs?status=error', () => logs.list(tenant.id, { status: 'error' })],
    ['logsPrompt', 'GET /logs?promptId', () => logs.list(tenant.id, { promptId: tenant.promptIds[0] })],
    [
      'logsCombined',
      'GET /logs?endpointId&status=error&source=TestPage',
      () => logs.list(tenant.id, { endpointId: endpoint, status: 'error', source: 'TestPage' }),
    ],
    [
      'logsLastDay',
      'GET /logs?from=(last 24 h)&endpointId',
      () => logs.list(tenant.id, { endpointId: endpoint, from: lastDay }),
    ],
    ['logsTag', 'GET /logs?tag=team:team-3 (10% of rows)', () => logs.list(tenant.id, { tag: ['team:team-3'] })],
    [
      'logsTagRare',
      'GET /logs?tag=customer:cust-900 (rare)',
      () => logs.list(tenant.id, { tag: ['customer:cust-900'] }),
    ],
    [
      'logsTagEither',
      'GET /logs?tag=feature:feature-1&tag=feature:feature-2',
      () => logs.list(tenant.id, { tag: ['feature:feature-1', 'feature:feature-2'] }),
    ],
    ['logsHasTag', 'GET /logs?hasTag=feature', () => logs.list(tenant.id, { hasTag: ['feature'] })],
    [
      'logsTwoKeys',
      'GET /logs?tag=team:team-3&tag=feature:feature-1',
      () => logs.list(tenant.id, { tag: ['team:team-3', 'feature:feature-1'] }),
    ],
    ['statsEndpoint', 'GET /stats?endpointId (7 days, day)', () => stats.stats(tenant.id, { endpointId: endpoint })],
    [
      'statsEndpointHour',
      'GET /stats?endpointId (24 h, hour)',
      () => stats.stats(tenant.id, { endpointId: endpoint, interval: 'hour' }),
    ],
    ['statsHour', 'GET /stats (all endpoints, 24 h, hour)', () => stats.stats(tenant.id, { interval: 'hour' })],
    ['statsTenant', 'GET /stats (all endpoints, 7 days, day)', () => stats.stats(tenant.id, {})],
    [
      'statsByPrompt',
      'GET /stats?groupBy=prompt (all endpoints, 7 days, day)',
      () => stats.stats(tenant.id, { groupBy: 'prompt' }),
    ],
    ['statsTag', 'GET /stats?tag=team:team-3 (7 days, day)', () => stats.stats(tenant.id, { tag: ['team:team-3'] })],
    ['statsHasTag', 'GET /stats?hasTag=feature (7 days, day)', () => stats.stats(tenant.id, { hasTag: ['feature'] })],
    ['statsByTeam', 'GET /stats?groupBy=tag:team (7 days, day)', () => stats.stats(tenant.id, { groupBy: 'tag:team' })],
    [
      'statsByCustomer',
      'GET /stats?groupBy=tag:customer (1,000 values, 7 days)',
      () => stats.stats(tenant.id, { groupBy: 'tag:customer' }),
    ],
    [
      'statsTwoKeys',
      'GET /stats?tag=team:team-3&tag=feature:feature-1 (rows, 7 days)',
      () => stats.stats(tenant.id, { tag: ['team:team-3', 'feature:feature-1'] }),
    ],
    [
      'statsScoreByPrompt',
      'GET /stats?score=helpful&groupBy=prompt (7 days, day)',
      () => stats.stats(tenant.id, { score: 'helpful', groupBy: 'prompt' }),
    ],
    ['statsScore', 'GET /stats?score=helpful (7 days, day)', () => stats.stats(tenant.id, { score: 'helpful' })],
    [
      'statsScoreTag',
      'GET /stats?score=helpful&tag=team:team-3 (from the rows, 7 days)',
      () => stats.stats(tenant.id, { score: 'helpful', tag: ['team:team-3'] }),
    ],
    [
      'statsEndpoint30d',
      'GET /stats?endpointId (30 days, day)',
      () => stats.stats(tenant.id, { endpointId: endpoint, from: new Date(now - 30 * 86_400_000).toISOString() }),
    ],
  ];
  say('\nService-call times (ms, median of 5 after one warm-up):');
  const results: Record<string, number> = {};
  for (const [key, name, run] of cases) {
    await run();
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    results[key] = Math.round(times[2] * 10) / 10;
    say(`  ${name.padEnd(56)} ${times[2].toFixed(1)}`);
  }
  return results;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
