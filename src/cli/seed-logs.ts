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
import { ScoreConfigsService } from '../modules/scores/score-configs.service';
import { KeysService } from '../modules/keys/keys.service';
import { scoreDayRollupsSql, scoreHourRollupsSql } from '../modules/scores/score-rollups.repository';
import { TenantsService } from '../modules/tenants/tenants.service';

const USAGE = `npm run seed:logs -- [--rows 1000000] [--endpoints 20] [--days 28] [--measure] [--runs 5] [--json] [--cleanup]
       npm run seed:logs -- --tenant SLUG [--runs 5] [--json]

Fills execution_logs with synthetic rows for measuring the logs and stats queries at scale: a new tenant (with an
admin key, printed) gets 90% of the rows spread over its endpoints and the last --days days (keep it under
LOG_RETENTION_DAYS, or the retention sweep removes the oldest); a second tenant gets the
other 10%. Rows are generated inside the database (INSERT … SELECT generate_series, chunks on parallel connections),
their hourly and daily rollups are summed from them as the log writer would have, then VACUUM ANALYZE runs. Each
tenant gets three score configs and 30% of its rows one score each (300,000 scores at 1,000,000 rows): 20% of the rows
'helpful' (boolean, true more often for later prompt versions), about 7% 'rating' (numeric 1 to 5) and 3% 'tone'
(categorical), with the scores' hourly and daily sums.
--measure then times the GET /logs and GET /stats service calls (median of --runs N runs each, 5 by default, after
one warm-up; on a shared machine the fastest run, also printed, is the steadier figure).
--json prints one JSON line instead (row count, seeding times and the main timings, which it implies).
--cleanup deletes the two tenants, with their rows and rollups, at the end.
--tenant SLUG seeds nothing: it times the same calls on a tenant an earlier run seeded (its slug, printed then), so two
builds can be measured alternately on the same rows.
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
      tenant: { type: 'string' },
      runs: { type: 'string', default: '5' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const rows = Number(values.rows);
  const runs = Number(values.runs);
  const endpointCount = Number(values.endpoints);
  const days = Number(values.days);
  if (![rows, endpointCount, days, runs].every((n) => Number.isInteger(n) && n > 0))
    throw new Error(`Bad arguments.\n${USAGE}`);

  const config = loadConfig(process.env, { logLevel: 'warn' });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ config }), { logger: ['error'] });
  const say = (text: string) => (values.json ? process.stderr : process.stdout).write(`${text}\n`);
  const tenants: SeedTenant[] = [];
  if (values.tenant !== undefined) {
    try {
      const { ms, fastestMs } = await measure(app, await seededTenant(app.get(DataSource), values.tenant), runs, say);
      if (values.json) process.stdout.write(`${JSON.stringify({ tenant: values.tenant, ms, fastestMs })}\n`);
    } finally {
      await app.close();
    }
    return;
  }
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
    for (const tenant of [main, noise]) await insertScores(app, db, tenant, say);
    const inserted = Date.now();
    await app.get(ExecutionLogRollupsRepository).buildFromLogs([main.id, noise.id]);
    // The scores' hourly and daily sums, as recording each score would have kept them.
    await db.query(scoreHourRollupsSql('s.tenant_id = ANY($1)'), [[main.id, noise.id]]);
    await db.query(scoreDayRollupsSql('r.tenant_id = ANY($1)'), [[main.id, noise.id]]);
    const rolledUp = Date.now();
    await db.query('VACUUM ANALYZE execution_logs');
    await db.query('VACUUM ANALYZE execution_log_rollups');
    await db.query('VACUUM ANALYZE execution_log_error_rollups');
    await db.query('VACUUM ANALYZE execution_log_tag_rollups');
    await db.query('VACUUM ANALYZE execution_log_tag_error_rollups');
    await db.query('VACUUM ANALYZE execution_log_tag_value_rollups');
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
      const { ms, fastestMs } = await measure(app, main, runs, say);
      if (values.json) process.stdout.write(`${JSON.stringify({ rows, ...timings, ms, fastestMs })}\n`);
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

/** A tenant an earlier run seeded, found by its slug: its endpoints in seeding order and a prompt of the first. */
async function seededTenant(db: DataSource, slug: string): Promise<SeedTenant> {
  const [tenant] = await db.query<{ id: string }[]>('SELECT id FROM tenants WHERE slug = $1', [slug]);
  if (!tenant) throw new Error(`No tenant ${slug}.`);
  const endpoints = await db.query<{ id: string }[]>(
    `SELECT id FROM endpoints WHERE tenant_id = $1 ORDER BY substring(path from '[0-9]+$')::int`,
    [tenant.id],
  );
  const [prompt] = await db.query<{ prompt_id: string }[]>(
    'SELECT prompt_id FROM execution_logs WHERE tenant_id = $1 AND endpoint_id = $2 LIMIT 1',
    [tenant.id, endpoints[0].id],
  );
  return {
    id: tenant.id,
    slug,
    adminKey: '',
    keyId: '',
    endpointIds: endpoints.map((e) => e.id),
    promptIds: [prompt.prompt_id],
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

/**
 * The tenant's score configs (`helpful` boolean, `rating` numeric 1..5, `tone` categorical), and one score on 30% of its
 * rows, chosen by the row's number g (its request id is `seed-<g>`): g % 10 in (0, 1) `helpful` (true for 65, 75 or
 * 85% of prompt versions 1, 2 and 3), g % 30 in (2, 12) `rating` (1..5), g % 30 = 22 `tone` (an admin's annotation).
 * Each score carries its row's endpoint, prompt, version, key and time, as the service records them.
 */
async function insertScores(
  app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>,
  db: DataSource,
  tenant: SeedTenant,
  say: (text: string) => void,
): Promise<void> {
  const configs = app.get(ScoreConfigsService);
  const helpful = await configs.create(tenant.id, { name: 'helpful', dataType: 'boolean' });
  const rating = await configs.create(tenant.id, { name: 'rating', dataType: 'numeric', minimum: 1, maximum: 5 });
  const tone = await configs.create(tenant.id, {
    name: 'tone',
    dataType: 'categorical',
    categories: ['formal', 'casual', 'rude'],
  });
  await db.query(
    `INSERT INTO execution_scores (tenant_id, log_id, endpoint_id, prompt_id, prompt_version, key_id, executed_at, name,
       config_id, data_type, value_number, value_category, comment, source, created_at, updated_at)
     SELECT l.tenant_id, l.id, l.endpoint_id, l.prompt_id, l.prompt_version, l.key_id, l.created_at, c.name, c.id,
       c.data_type,
       CASE c.name WHEN 'helpful' THEN (random() < 0.55 + 0.1 * l.prompt_version)::int
                   WHEN 'rating' THEN 1 + floor(random() * 5) END,
       CASE c.name WHEN 'tone' THEN (ARRAY['formal', 'casual', 'rude'])[1 + (l.g / 30) % 3] END,
       NULL, CASE c.name WHEN 'tone' THEN 'annotation' ELSE 'api' END,
       l.created_at + interval '1 minute', l.created_at + interval '1 minute'
     FROM (SELECT *, substr(request_id, 6)::int AS g FROM execution_logs WHERE tenant_id = $1) l
     JOIN score_configs c ON c.tenant_id = l.tenant_id AND c.name = CASE
       WHEN l.g % 10 IN (0, 1) THEN 'helpful' WHEN l.g % 30 IN (2, 12) THEN 'rating' WHEN l.g % 30 = 22 THEN 'tone' END`,
    [tenant.id],
  );
  const [{ count }] = await db.query<{ count: number }[]>(
    'SELECT count(*)::int AS count FROM execution_scores WHERE tenant_id = $1',
    [tenant.id],
  );
  say(`  ${tenant.slug}: ${count} scores (${[helpful, rating, tone].map((c) => c.name).join(', ')})`);
}

/** The service-call times, in ms (the median and the fastest of `runs` after one warm-up), keyed by a short name. */
async function measure(
  app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>,
  tenant: SeedTenant,
  runs: number,
  say: (text: string) => void,
): Promise<{ ms: Record<string, number>; fastestMs: Record<string, number> }> {
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
    [
      'logsTagTop',
      'GET /logs?tag=customer:cust-0 (4% of rows)',
      () => logs.list(tenant.id, { tag: ['customer:cust-0'] }),
    ],
    [
      'logsTagEndpoint',
      'GET /logs?tag=team:team-3&endpointId (2.5% of rows)',
      () => logs.list(tenant.id, { tag: ['team:team-3'], endpointId: tenant.endpointIds[3] }),
    ],
    [
      'logsTagLastDay',
      'GET /logs?tag=team:team-3&from=(last 24 h)',
      () => logs.list(tenant.id, { tag: ['team:team-3'], from: lastDay }),
    ],
    ['logsHasTag', 'GET /logs?hasTag=feature', () => logs.list(tenant.id, { hasTag: ['feature'] })],
    [
      'logsHasTagMany',
      'GET /logs?hasTag=customer (1,000 values)',
      () => logs.list(tenant.id, { hasTag: ['customer'] }),
    ],
    [
      'logsTwoKeys',
      'GET /logs?tag=team:team-3&tag=feature:feature-1',
      () => logs.list(tenant.id, { tag: ['team:team-3', 'feature:feature-1'] }),
    ],
    ['logsScore', 'GET /logs?score=helpful (20% of rows)', () => logs.list(tenant.id, { score: ['helpful'] })],
    ['logsScoreValue', 'GET /logs?score=helpful:false', () => logs.list(tenant.id, { score: ['helpful:false'] })],
    ['logsScoreRare', 'GET /logs?score=tone:rude (1% of rows)', () => logs.list(tenant.id, { score: ['tone:rude'] })],
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
    [
      'statsTagRare',
      'GET /stats?tag=customer:cust-900 (7 days, day)',
      () => stats.stats(tenant.id, { tag: ['customer:cust-900'] }),
    ],
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
  say(`\nService-call times (ms, median of ${runs} after one warm-up, and the fastest):`);
  const ms: Record<string, number> = {};
  const fastestMs: Record<string, number> = {};
  for (const [key, name, run] of cases) {
    await run();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor((runs - 1) / 2)];
    ms[key] = Math.round(median * 10) / 10;
    fastestMs[key] = Math.round(times[0] * 10) / 10;
    say(`  ${name.padEnd(64)} ${median.toFixed(1).padStart(7)} ${times[0].toFixed(1).padStart(7)}`);
  }
  return { ms, fastestMs };
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
