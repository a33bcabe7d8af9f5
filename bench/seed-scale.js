'use strict';
// `npm run bench -- --scale`: fills the bench tenant with 10,000 endpoints and 100,000 keys (PostgreSQL only: the
// embedded database belongs to the running service), so the run shows whether the hot path slows down at that size.
// Usage: node bench/seed-scale.js <service-url> <admin-key>   (DATABASE_URL must be set)
const { createHash } = require('node:crypto');
const { Client } = require('pg');

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
    await client.query('ANALYZE endpoints; ANALYZE api_keys');
    process.stderr.write(`seeded 10,000 endpoints and 100,000 keys in ${Date.now() - started} ms\n`);
    const timed = async (route) => {
      const t0 = process.hrtime.bigint();
      const res = await fetch(url + route, { headers: { 'x-api-key': adminKey } });
      await res.arrayBuffer();
      return `${route} ${res.status} in ${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(1)} ms`;
    };
    for (const route of ['/admin/v1/keys', '/admin/v1/endpoints?search=scale-999', '/admin/v1/logs?pageSize=50']) {
      process.stderr.write(`${await timed(route)}\n`);
    }
  } finally {
    await client.end();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
