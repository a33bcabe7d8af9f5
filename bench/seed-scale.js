'use strict';
// `npm run bench -- --scale`: fills the bench tenant with 10,000 endpoints and 100,000 keys (PostgreSQL only: the
// embedded database belongs to the running service), so the run shows whether the hot path slows down at that size,
// and times the admin reads that touch those tables.
// Usage: node bench/seed-scale.js <service-url> <admin-key>   (DATABASE_URL must be set)
const { createHash } = require('node:crypto');
const { Client } = require('pg');

/** Admin reads at that size: the paged lists (a first and a deep page of keys), a filtered list and the logs. */
const ROUTES = [
  '/admin/v1/keys',
  '/admin/v1/keys?page=1000&pageSize=100',
  '/admin/v1/endpoints',
  '/admin/v1/endpoints?search=scale-999',
  '/admin/v1/logs?pageSize=50',
];

async function main() {
  const [url, adminKey] = process.argv.slice(2);
  if (!process.env.DATABASE_URL) throw new Error('--scale needs DATABASE_URL');
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const hash = createHash('sha256').update(adminKey).digest('hex');
    const { rows } = await client.query('SELECT tenant_id FROM api_keys WHERE key_hash = $1', [hash]);
    if (!rows[0]) throw new Error('the bench admin key is not in the database');
    const tenantId = rows[0].tenant_id;
    const started = Date.now();
    await client.query(
      `INSERT INTO endpoints (tenant_id, name, path, description)
       SELECT $1, 'scale ' || g, '/api/v1/scale-' || g, 'seeded by bench --scale' FROM generate_series(1, 10000) g`,
      [tenantId],
    );
    await client.query(
      `INSERT INTO api_keys (tenant_id, name, type, environment, key_hash, last4)
       SELECT $1::uuid, 'scale ' || g, 'endpoint', 'live', encode(sha256(('scale-key-' || $1::text || g)::bytea), 'hex'), 'sc' || lpad((g % 100)::text, 2, '0')
       FROM generate_series(1, 100000) g`,
      [tenantId],
    );
    // What autovacuum does soon after a bulk insert (statistics, and the visibility map that lets a deep page of keys be
    // chosen from the index alone); a bench server may run with autovacuum off.
    await client.query('VACUUM ANALYZE endpoints');
    await client.query('VACUUM ANALYZE api_keys');
    process.stderr.write(`seeded 10,000 endpoints and 100,000 keys in ${Date.now() - started} ms\n`);
    const once = async (route) => {
      const t0 = process.hrtime.bigint();
      const res = await fetch(url + route, { headers: { 'x-api-key': adminKey } });
      const body = await res.json();
      return { ms: Number(process.hrtime.bigint() - t0) / 1e6, res, body };
    };
    // The first call of each route is reported as is (cold plan and cache); the median of the next five is the warm time.
    for (const route of ROUTES) {
      const first = await once(route);
      const warm = [];
      for (let i = 0; i < 5; i++) warm.push((await once(route)).ms);
      warm.sort((a, b) => a - b);
      const { data } = first.body;
      const rows = Array.isArray(data) ? data.length : Array.isArray(data?.items) ? data.items.length : '?';
      const next = first.res.headers.get('link') ? ', Link rel="next"' : '';
      process.stderr.write(
        `${route} ${first.res.status}, ${rows} rows${next}: first ${first.ms.toFixed(1)} ms, median of 5 ${warm[2].toFixed(1)} ms\n`,
      );
    }
  } finally {
    await client.end();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
