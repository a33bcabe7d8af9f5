import { assignVariant, type TrafficSplit } from '../../src/modules/endpoints/traffic-split';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { auth } from '../support/seed';
import { type TestApp } from '../support/test-app';
import { withinASecond } from '../support/within-a-second';
import { useTwoInstances } from '../support/app-suite';

// Two instances of the service on one PostgreSQL and one Redis: a traffic split assigns alike on both, and a change of
// the split made on one applies on the other within a second.
const shared = process.env.DATABASE_URL && process.env.REDIS_URL ? describe : describe.skip;

shared('traffic split on two instances (skipped unless DATABASE_URL and REDIS_URL are set)', () => {
  const { a, b, tenant } = useTwoInstances();

  const execute = (t: TestApp, path: string, user: string) =>
    t.http
      .post(path)
      .set({ ...auth(tenant.admin), 'x-user-id': user })
      .send({});

  it('sends a sticky value to the same variant on both instances, and applies a new split on both within 1 s', async () => {
    const endpoint = await createEndpoint(a, tenant.admin);
    const control = await createPrompt(a, tenant.admin, endpoint.id, { name: 'Control', template: 'control' });
    const candidate = await createPrompt(
      a,
      tenant.admin,
      endpoint.id,
      { name: 'Candidate', template: 'candidate' },
      'Live',
    );
    const split: TrafficSplit = {
      variants: [
        { promptId: control.id, weight: 50 },
        { promptId: candidate.id, weight: 50 },
      ],
      stickyBy: 'header:x-user-id',
    };
    await a.http
      .put(`/admin/v1/endpoints/${endpoint.id}`)
      .set(auth(tenant.admin))
      .send({ trafficSplit: split })
      .expect(200);
    const answerOf = { [control.id]: 'control', [candidate.id]: 'candidate' };
    const users = Array.from({ length: 20 }, (_, i) => `user-${i}`);
    await withinASecond(async () => {
      for (const user of users) {
        const expected = answerOf[assignVariant(split, endpoint.id, user)];
        const [onA, onB] = await Promise.all([execute(a, endpoint.path, user), execute(b, endpoint.path, user)]);
        expect([onA.status, onA.body, onB.status, onB.body]).toEqual([200, expected, 200, expected]);
        expect(onA.headers['x-prompt']).toBe(onB.headers['x-prompt']);
      }
    });
    expect(new Set(users.map((user) => assignVariant(split, endpoint.id, user))).size).toBe(2);

    // The same weights in the other order, changed on A: every sticky value flips to the other variant, and B follows
    // within a second (the bus drops its copy of the endpoint).
    const swapped: TrafficSplit = { variants: [split.variants[1], split.variants[0]], stickyBy: split.stickyBy };
    const before = (await execute(b, endpoint.path, 'user-0')).body as string;
    await a.http
      .put(`/admin/v1/endpoints/${endpoint.id}`)
      .set(auth(tenant.admin))
      .send({ trafficSplit: swapped })
      .expect(200);
    const after = answerOf[assignVariant(swapped, endpoint.id, 'user-0')];
    expect(after).not.toBe(before);
    const tookMs = await withinASecond(async () => {
      const onB = await execute(b, endpoint.path, 'user-0');
      expect(onB.body).toBe(after);
    });
    expect(tookMs).toBeLessThanOrEqual(1_000);

    // Removing the split gives the default back everywhere.
    await a.http
      .put(`/admin/v1/endpoints/${endpoint.id}`)
      .set(auth(tenant.admin))
      .send({ trafficSplit: null })
      .expect(200);
    await withinASecond(async () => {
      const onB = await execute(b, endpoint.path, 'user-1');
      expect([onB.body, onB.headers['x-prompt']]).toEqual(['control', `${control.slug}@1`]);
    });
  });
});
