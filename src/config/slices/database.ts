import * as path from 'node:path';
import { DATABASE_SSL_VALUES, resolveDatabaseTls } from '../database-tls';
import { bool, defineSlice, int, matching, oneOf, text } from '../variable';

/** The database (embedded or PostgreSQL) and Redis. */
export const databaseSlice = defineSlice({
  variables: {
    DATA_DIR: text({
      default: './data',
      meaning:
        "Directory of the embedded database (PGlite), used when `DATABASE_URL` is unset. One process per directory: a second one refuses to start. It and everything in it are the service user's only (directories 0700, files 0600); an existing directory is tightened at start.",
    }),
    DATABASE_URL: matching(/^postgres(ql)?:\/\/.+/, 'DATABASE_URL must be a postgres:// or postgresql:// URL', {
      meaning:
        '`postgres://user:password@host:5432/db` (or `postgresql://`) selects a real PostgreSQL instead of the embedded database.',
    }),
    DATABASE_POOL_MAX: int(
      { min: 1, max: 1000 },
      {
        default: 10,
        meaning:
          "Connections each instance opens to PostgreSQL at most (1 to 1000). Requests beyond it wait for one. Keep instances × this (plus one listening connection per instance) under the server's `max_connections`. Not used by the embedded database.",
      },
    ),
    DATABASE_SSL: oneOf(
      DATABASE_SSL_VALUES,
      {
        docDefault: "(the URL's `sslmode`)",
        meaning:
          "TLS to PostgreSQL: `false` or `disable` (none), `require` (encrypted, the server's certificate not checked), `verify-ca` (the certificate signed by an authority Node trusts), `verify-full` or `true` (that, and issued for the host). Unset, the `sslmode` of `DATABASE_URL` decides (`disable`, `require`, `verify-ca`, `verify-full`, or node-postgres's `no-verify` = `require`; libpq's `allow` and `prefer`, which fall back to an unencrypted connection, are refused); neither set means no TLS unless `PGSSLMODE` says otherwise. Both set must agree. A private authority: `NODE_EXTRA_CA_CERTS=/path/ca.pem`.",
      },
      {
        message: 'DATABASE_SSL must be one of true, false, disable, require, verify-ca or verify-full',
        normalize: (value) => value.trim().toLowerCase(),
      },
    ),
    MIGRATIONS_RUN: bool({
      default: true,
      meaning:
        'Apply database migrations at start. `false` leaves them to you (`npm run migration:run`; see [operations](operations.md#upgrades-and-migrations)).',
    }),
    REDIS_URL: matching(/^rediss?:\/\/.+/, 'REDIS_URL must be a redis:// or rediss:// URL', {
      meaning:
        '`redis://host:6379` (or `rediss://`) keeps the response cache and rate-limit counters in Redis, shared by every instance, and carries invalidations between instances (two connections per instance: see [operations](operations.md#what-instances-share)). Without it they live in process memory.',
    }),
  },
  config: (values) => ({
    /** Absolute path of the embedded database directory, or `memory://` (tests). */
    dataDir: values.DATA_DIR.startsWith('memory://') ? values.DATA_DIR : path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    /** Connections each instance opens to PostgreSQL at most. */
    databasePoolMax: values.DATABASE_POOL_MAX,
    /** TLS to PostgreSQL, from DATABASE_SSL or the URL's sslmode; unset leaves the driver's default. */
    databaseTls: resolveDatabaseTls(values.DATABASE_SSL, values.DATABASE_URL).mode,
    migrationsRun: values.MIGRATIONS_RUN,
    redisUrl: values.REDIS_URL,
  }),
  // DATABASE_SSL's own problem is the decorator's; what is left is its disagreeing with the URL's sslmode.
  problems: (raw, values) =>
    resolveDatabaseTls(raw.DATABASE_SSL, values.DATABASE_URL).problems.filter(
      (problem) => !problem.startsWith('DATABASE_SSL must'),
    ),
});
