import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { KeysService } from '../../src/modules/keys/keys.service';
import { useTestApp } from '../support/app-suite';
import { auth, seedTenant, SeededTenant } from '../support/seed';
import { createTestApp, TestApp } from '../support/test-app';
import { withinASecond } from '../support/within-a-second';
import { useTwoInstances } from '../support/app-suite';

const randomAdminKey = () => 'epa_' + randomBytes(30).toString('base64url').replace(/[-_]/g, 'x');

/**
 * Counts the queries the app sends that look an API key up by its hash, through TypeORM's query logger (the database
 * is real). Other reads of the keys (by id, when another instance says a key changed) and the batched write of keys'
 * last use, which run in the background, are not lookups of a presented key and are not counted.
 */
function keyQueryCounter(t: TestApp): { count: () => number; stop: () => void } {
  const logger = t.app.get(DataSource).logger;
  let seen = 0;
  const original = logger.logQuery.bind(logger);
  const counting = jest.spyOn(logger, 'logQuery').mockImplementation((query, ...rest) => {
    if (/^\s*SELECT\b/i.test(query) && /api_keys/.test(query) && /\bWHERE\b[\s\S]*key_hash/i.test(query)) seen++;
    return original(query, ...rest);
  });
  return { count: () => seen, stop: () => counting.mockRestore() };
}

describe('Failed authentications: unknown keys remembered, failures throttled per client address', () => {
  const { t, tenant } = useTestApp({ env: { AUTH_FAILURES_PER_MINUTE: '100' } });

  it('looks an unknown key up once: a repeat is refused without a query', async () => {
    const unknown = randomAdminKey();
    const queries = keyQueryCounter(t);
    try {
      expect((await t.http.get('/admin/v1/session').set(auth(unknown))).status).toBe(401);
      expect(queries.count()).toBeGreaterThan(0);
      const afterFirst = queries.count();
      for (let i = 0; i < 3; i++) {
        const again = await t.http.get('/admin/v1/session').set(auth(unknown));
        expect(again.status).toBe(401);
        expect(again.body.messages).toEqual(['The API key is invalid or revoked']);
      }
      expect(queries.count()).toBe(afterFirst);
    } finally {
      queries.stop();
    }
  });

  it('accepts at once a key created after it was remembered as unknown', async () => {
    const raw = randomAdminKey();
    expect((await t.http.get('/admin/v1/session').set(auth(raw))).status).toBe(401);
    expect(await t.app.get(KeysService).ensureAdminKey(tenant.id, raw, 'created later')).toBe(true);
    const session = await t.http.get('/admin/v1/session').set(auth(raw));
    expect(session.status).toBe(200);
    expect(session.body.data.tenant.slug).toBe(tenant.slug);
  });

  describe('from one address', () => {
    let throttled: TestApp;
    let own: SeededTenant;

    beforeAll(async () => {
      throttled = await createTestApp({}, { AUTH_FAILURES_PER_MINUTE: '100' });
      own = await seedTenant(throttled.app);
      // In use on this instance before the failures start.
      expect((await throttled.http.get('/admin/v1/session').set(auth(own.admin))).status).toBe(200);
    });
    afterAll(() => throttled.close());

    it('answers the 101st failure in a minute 429 with Retry-After, in each surface shape, without a lookup', async () => {
      for (let i = 0; i < 100; i++) {
        const failed = await throttled.http.get('/admin/v1/session').set(auth(randomAdminKey()));
        expect(failed.status).toBe(401);
      }
      const queries = keyQueryCounter(throttled);
      try {
        const admin = await throttled.http.get('/admin/v1/session').set(auth(randomAdminKey()));
        expect(admin.status).toBe(429);
        expect(Number(admin.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(admin.headers['retry-after'])).toBeLessThanOrEqual(60);
        expect(admin.body).toEqual({
          succeeded: false,
          messages: [
            expect.stringMatching(/^Too many failed authentications from this address: retry in \d+ seconds$/),
          ],
          data: null,
        });
        const execution = await throttled.http.post('/api/v1/anything').send({});
        expect(execution.status).toBe(429);
        expect(execution.body).toEqual({
          error: 'rate_limit_exceeded',
          message: expect.stringMatching(/retry in \d+ seconds/),
          retry_after: expect.any(Number),
        });
        expect(queries.count()).toBe(0);
      } finally {
        queries.stop();
      }
    });

    it('still serves a valid key in use on this instance from that address', async () => {
      const session = await throttled.http.get('/admin/v1/session').set(auth(own.admin));
      expect(session.status).toBe(200);
      expect(session.body.data.tenant.slug).toBe(own.slug);
    });

    it('holds back a valid key this instance has not seen lately, until the minute ends (nothing is looked up)', async () => {
      const session = await throttled.http.get('/admin/v1/session').set(auth(own.readOnly));
      expect(session.status).toBe(429);
    });

    it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
      const spoofed = await throttled.http
        .get('/admin/v1/session')
        .set({ ...auth(randomAdminKey()), 'x-forwarded-for': '198.51.100.77' });
      expect(spoofed.status).toBe(429);
    });

    it('counts the failures of each application instance apart (the other app is not throttled)', async () => {
      expect((await t.http.get('/admin/v1/session').set(auth(tenant.admin))).status).toBe(200);
    });
  });
});

describe('behind a trusted proxy', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({}, { AUTH_FAILURES_PER_MINUTE: '3', TRUSTED_PROXIES: '127.0.0.1, ::1' });
  });
  afterAll(() => t.close());

  it('counts failures under the client address X-Forwarded-For names', async () => {
    const from = (client: string) =>
      t.http.get('/admin/v1/session').set({ ...auth(randomAdminKey()), 'x-forwarded-for': `203.0.113.9, ${client}` });
    for (let i = 0; i < 3; i++) expect((await from('198.51.100.1')).status).toBe(401);
    expect((await from('198.51.100.1')).status).toBe(429);
    // Another client behind the same proxy, and the address the client wrote itself, are not held back.
    expect((await from('198.51.100.2')).status).toBe(401);
    const written = await t.http
      .get('/admin/v1/session')
      .set({ ...auth(randomAdminKey()), 'x-forwarded-for': '198.51.100.1, 198.51.100.3' });
    expect(written.status).toBe(401);
  });
});

const withPostgres = process.env.DATABASE_URL ? describe : describe.skip;

withPostgres('a key remembered as unknown on another instance (skipped unless DATABASE_URL is set)', () => {
  const { a, b, tenant } = useTwoInstances();

  it('works there within a second of its creation', async () => {
    const raw = randomAdminKey();
    expect((await b.http.get('/admin/v1/session').set(auth(raw))).status).toBe(401);
    expect(await a.app.get(KeysService).ensureAdminKey(tenant.id, raw, 'created on a')).toBe(true);
    await withinASecond(async () => {
      expect((await b.http.get('/admin/v1/session').set(auth(raw))).status).toBe(200);
    });
  });
});
