import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { LogRetentionService } from '../../src/modules/logs/log-retention.service';
import type { NewExecutionLog } from '../../src/modules/logs/new-execution-log';
import { meanInterval, wilsonInterval } from '../../src/modules/logs/score-statistics';
import { useTestApp, useTwoInstances } from '../support/app-suite';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { eventually } from '../support/eventually';
import { logEntry } from '../support/log-fixtures';
import { connectMcp, toolJson } from '../support/mcp-client';
import { auth, type SeededTenant } from '../support/seed';
import type { TestApp } from '../support/test-app';

const HOUR = 3_600_000;

/** Declares a score config through the admin API. */
async function declare(t: TestApp, tenant: SeededTenant, config: Record<string, unknown>): Promise<void> {
  const res = await t.http.post('/admin/v1/score-configs').set(auth(tenant.admin)).send(config);
  if (res.status !== 201) throw new Error(`score config: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Scores the execution answered with `requestId` through the execution API (the tenant's admin key may score any). */
async function score(t: TestApp, tenant: SeededTenant, requestId: string, name: string, value: unknown) {
  const res = await t.http.post('/api/v1/_scores').set(auth(tenant.admin)).send({ requestId, name, value });
  if (res.status !== 201 && res.status !== 200) throw new Error(`score: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

/** Writes log rows as executions would have (at the times they give), and waits until they are stored. */
async function writeLogs(t: TestApp, entries: NewExecutionLog[]): Promise<void> {
  const writer = t.app.get(ExecutionLogsService);
  for (const entry of entries) writer.record(entry);
  await writer.flush();
}

async function stats(t: TestApp, tenant: SeededTenant, query: string): Promise<any> {
  const res = await t.http.get(`/admin/v1/stats?${query}`).set(auth(tenant.admin));
  if (res.status !== 200) throw new Error(`stats: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const rounded = (interval: [number, number] | null) =>
  interval && interval.map((bound) => Math.round(bound * 1e6) / 1e6);

describe('feedback scores in GET /admin/v1/stats', () => {
  const { t, tenant } = useTestApp({ listen: true });
  let endpointId: string;
  let otherEndpointId: string;
  let control: { id: string; name: string };
  let candidate: { id: string; name: string };
  /** Whole hours before now: the executions of the first tests ran 3 hours ago (read from the hourly sums). */
  const hoursAgo = (hours: number, minute = 10) =>
    new Date(Math.floor(Date.now() / HOUR) * HOUR - hours * HOUR + minute * 60_000);

  beforeAll(async () => {
    endpointId = (await createEndpoint(t, tenant.admin)).id;
    otherEndpointId = (await createEndpoint(t, tenant.admin)).id;
    control = await createPrompt(t, tenant.admin, endpointId, { name: 'Control', template: 'control' });
    candidate = await createPrompt(t, tenant.admin, endpointId, { name: 'Candidate', template: 'candidate' }, 'Live');
    await declare(t, tenant, { name: 'helpful', dataType: 'boolean' });
    await declare(t, tenant, { name: 'rating', dataType: 'numeric', minimum: 1, maximum: 5 });
    await declare(t, tenant, { name: 'topic', dataType: 'categorical', categories: ['billing', 'bug', 'other'] });

    // 40 executions of each prompt three hours ago, 2 of the candidate in the current hour, and 3 of another endpoint;
    // helpful: the candidate 36 of 42 (tagged team=a), the control 12 of 40; the other endpoint 3 of 3.
    const entries: NewExecutionLog[] = [];
    const add = (endpoint: string, promptId: string, createdAt: Date, tags: Record<string, string> = {}) => {
      const entry = logEntry(tenant.id, endpoint, { promptId, promptVersion: 1, createdAt, tags });
      entries.push(entry);
      return entry;
    };
    const candidateRuns = Array.from({ length: 40 }, (_, i) =>
      add(endpointId, candidate.id, hoursAgo(3, i), { team: 'a' }),
    );
    candidateRuns.push(add(endpointId, candidate.id, new Date(Date.now() - 1000), { team: 'a' }));
    candidateRuns.push(add(endpointId, candidate.id, new Date(Date.now() - 2000), { team: 'a' }));
    const controlRuns = Array.from({ length: 40 }, (_, i) => add(endpointId, control.id, hoursAgo(3, i)));
    const otherRuns = Array.from({ length: 3 }, () => add(otherEndpointId, control.id, hoursAgo(3)));
    await writeLogs(t, entries);
    const ratings = [5, 4, 4, 3, 5];
    const topics = ['billing', 'bug', 'billing'];
    await Promise.all([
      ...candidateRuns.map((run, i) => score(t, tenant, run.requestId, 'helpful', i >= 6)),
      ...controlRuns.map((run, i) => score(t, tenant, run.requestId, 'helpful', i < 12)),
      ...otherRuns.map((run) => score(t, tenant, run.requestId, 'helpful', true)),
      ...ratings.map((value, i) => score(t, tenant, controlRuns[i].requestId, 'rating', value)),
      ...topics.map((value, i) => score(t, tenant, candidateRuns[i].requestId, 'topic', value)),
    ]);
  });

  it('adds the count and share of true of a boolean score to the totals, within the endpoint asked for', async () => {
    const data = await stats(t, tenant, `endpointId=${endpointId}&score=helpful`);
    expect(data.totals.calls).toBe(82);
    expect(data.totals.scores).toEqual({ name: 'helpful', count: 82, mean: Math.round((48 / 82) * 1e6) / 1e6 });
    const all = await stats(t, tenant, 'score=helpful');
    expect(all.totals.scores).toMatchObject({ count: 85, mean: Math.round((51 / 85) * 1e6) / 1e6 });
    // Without score, no scores.
    expect((await stats(t, tenant, `endpointId=${endpointId}`)).totals.scores).toBeUndefined();
  });

  it('gives each prompt its share, Wilson interval and verdict against the best other prompt', async () => {
    const data = await stats(t, tenant, `endpointId=${endpointId}&score=helpful&groupBy=prompt`);
    const group = (id: string) => data.groups.find((g: any) => g.promptId === id).totals.scores;
    expect(group(candidate.id)).toEqual({
      name: 'helpful',
      count: 42,
      mean: Math.round((36 / 42) * 1e6) / 1e6,
      ci95: rounded(wilsonInterval(36, 42)),
      verdict: 'better',
    });
    expect(group(control.id)).toEqual({
      name: 'helpful',
      count: 40,
      mean: 0.3,
      ci95: rounded(wilsonInterval(12, 40)),
      verdict: 'worse',
    });
  });

  it('gives a numeric score its mean and Student t interval, inconclusive below 30 scores', async () => {
    const data = await stats(t, tenant, `endpointId=${endpointId}&score=rating&groupBy=prompt`);
    expect(data.totals.scores).toEqual({ name: 'rating', count: 5, mean: 4.2 });
    const control = data.groups.find((g: any) => g.promptName === 'Control').totals.scores;
    const sums = { count: 5, sum: 21, sumOfSquares: 25 + 16 + 16 + 9 + 25 };
    expect(control).toEqual({
      name: 'rating',
      count: 5,
      mean: 4.2,
      ci95: rounded(meanInterval(sums)),
      verdict: 'inconclusive',
    });
    const candidate = data.groups.find((g: any) => g.promptName === 'Candidate').totals.scores;
    expect(candidate).toEqual({ name: 'rating', count: 0, mean: null, ci95: null, verdict: 'inconclusive' });
  });

  it('counts a categorical score per category, every category of the config, with no interval', async () => {
    const data = await stats(t, tenant, `score=topic&groupBy=prompt`);
    const counts = { billing: 2, bug: 1, other: 0 };
    expect(data.totals.scores).toEqual({ name: 'topic', count: 3, counts });
    expect(data.groups.find((g: any) => g.promptName === 'Candidate').totals.scores).toEqual({
      name: 'topic',
      count: 3,
      counts,
    });
  });

  it('combines with a tag filter and gives tag groups their scores', async () => {
    const tagged = await stats(t, tenant, `score=helpful&tag=team:a`);
    expect(tagged.totals.scores).toMatchObject({ count: 42, mean: Math.round((36 / 42) * 1e6) / 1e6 });
    const byTeam = await stats(t, tenant, `score=helpful&groupBy=tag:team`);
    expect(byTeam.groups.map((g: any) => [g.tag.value, g.totals.scores.count])).toEqual([
      ['a', 42],
      [null, 43],
    ]);
  });

  it('counts a score in the hour of its execution, however late it is recorded, and a replacement once', async () => {
    const [late] = [logEntry(tenant.id, endpointId, { promptId: control.id, createdAt: hoursAgo(5, 30) })];
    await writeLogs(t, [late]);
    const hour = hoursAgo(5, 0);
    const thatHour = `endpointId=${endpointId}&score=rating&from=${hour.toISOString()}&to=${new Date(hour.getTime() + HOUR).toISOString()}`;
    expect((await stats(t, tenant, thatHour)).totals.scores).toEqual({ name: 'rating', count: 0, mean: null });
    expect((await score(t, tenant, late.requestId, 'rating', 2)).status).toBe(201);
    expect((await stats(t, tenant, thatHour)).totals.scores).toEqual({ name: 'rating', count: 1, mean: 2 });
    // Replaced: still one score, of the new value, in the totals read from the hourly sums and from the rows.
    expect((await score(t, tenant, late.requestId, 'rating', 5)).status).toBe(200);
    expect((await stats(t, tenant, thatHour)).totals.scores).toEqual({ name: 'rating', count: 1, mean: 5 });
    const partial = `endpointId=${endpointId}&score=rating&from=${hoursAgo(5, 20).toISOString()}&to=${hoursAgo(5, 40).toISOString()}`;
    expect((await stats(t, tenant, partial)).totals.scores).toEqual({ name: 'rating', count: 1, mean: 5 });
    // The hour it was recorded in holds no rating.
    const now = `endpointId=${endpointId}&score=rating&from=${hoursAgo(0, 0).toISOString()}`;
    expect((await stats(t, tenant, now)).totals.scores).toEqual({ name: 'rating', count: 0, mean: null });
  });

  it('counts scores of executions days ago from the daily sums, a replacement once', async () => {
    const endpoint = (await createEndpoint(t, tenant.admin)).id;
    const days = [3, 3, 4].map((n) => logEntry(tenant.id, endpoint, { createdAt: hoursAgo(24 * n) }));
    await writeLogs(t, days);
    for (const [i, entry] of days.entries()) await score(t, tenant, entry.requestId, 'rating', i + 1);
    await score(t, tenant, days[0].requestId, 'rating', 4);
    // The default period (7 days before now) reads those whole days from the daily sums: 4, 2 and 3.
    expect((await stats(t, tenant, `endpointId=${endpoint}&score=rating`)).totals.scores).toEqual({
      name: 'rating',
      count: 3,
      mean: 3,
    });
    expect(
      (
        await stats(
          t,
          tenant,
          `endpointId=${endpoint}&score=rating&interval=hour&from=${hoursAgo(24 * 3 + 1).toISOString()}`,
        )
      ).totals.scores,
    ).toEqual({ name: 'rating', count: 2, mean: 3 });
  });

  it('forgets the sums of scores whose executions the retention sweep removed', async () => {
    const endpoint = (await createEndpoint(t, tenant.admin)).id;
    const old = logEntry(tenant.id, endpoint, { createdAt: hoursAgo(24 * 40) });
    await writeLogs(t, [old]);
    await score(t, tenant, old.requestId, 'rating', 4);
    const query = `endpointId=${endpoint}&score=rating&from=${hoursAgo(24 * 42).toISOString()}&to=${hoursAgo(24 * 38).toISOString()}`;
    expect((await stats(t, tenant, query)).totals.scores).toEqual({ name: 'rating', count: 1, mean: 4 });
    // Logs are kept 30 days.
    await t.app.get(LogRetentionService).sweep(new Date());
    expect((await stats(t, tenant, query)).totals.scores).toEqual({ name: 'rating', count: 0, mean: null });
  });

  it('with source=Api counts only the scores of calls made through the API, not those of test runs', async () => {
    const endpoint = (await createEndpoint(t, tenant.admin)).id;
    const only = await createPrompt(t, tenant.admin, endpoint, { name: 'Only', template: 'only' });
    const run = (source: NewExecutionLog['source']) =>
      logEntry(tenant.id, endpoint, { promptId: only.id, promptVersion: 1, source, createdAt: hoursAgo(3) });
    const api = [run('Api'), run('Api'), run('Api')];
    const tests = [run('TestPage'), run('TestPage')];
    await writeLogs(t, [...api, ...tests]);
    for (const entry of api) await score(t, tenant, entry.requestId, 'helpful', true);
    for (const entry of tests) await score(t, tenant, entry.requestId, 'helpful', false);
    const query = `endpointId=${endpoint}&groupBy=prompt&score=helpful`;
    const all = await stats(t, tenant, query);
    expect(all.totals.calls).toBe(5);
    expect(all.groups[0].totals.scores).toMatchObject({ name: 'helpful', count: 5, mean: 0.6 });
    const onlyApi = await stats(t, tenant, `${query}&source=Api`);
    expect(onlyApi.totals.calls).toBe(3);
    expect(onlyApi.totals.scores).toMatchObject({ count: 3, mean: 1 });
    expect(onlyApi.groups).toEqual([
      expect.objectContaining({ promptId: only.id, totals: expect.objectContaining({ calls: 3 }) }),
    ]);
    expect(onlyApi.groups[0].totals.scores).toMatchObject({ count: 3, mean: 1 });
  });

  it('gives MCP get_stats the same score figures', async () => {
    const client = await connectMcp(t.url, tenant.admin);
    try {
      const query = { endpointId, score: 'helpful', groupBy: 'prompt' };
      const viaMcp = toolJson(await client.callTool({ name: 'get_stats', arguments: query }));
      const viaRest = await stats(t, tenant, new URLSearchParams(query).toString());
      expect(viaMcp.totals.scores).toEqual(viaRest.totals.scores);
      expect(viaMcp.groups.map((g: any) => g.totals.scores)).toEqual(viaRest.groups.map((g: any) => g.totals.scores));
    } finally {
      await client.close();
    }
  });

  it('refuses a score no config declares, and a malformed name, naming score', async () => {
    const unknown = await t.http.get('/admin/v1/stats?score=nope').set(auth(tenant.admin));
    expect(unknown.status).toBe(400);
    expect(unknown.body.messages.join(' ')).toMatch(/score/);
    const malformed = await t.http.get('/admin/v1/stats?score=Not%20a%20name').set(auth(tenant.admin));
    expect(malformed.status).toBe(400);
    expect(malformed.body.messages.join(' ')).toMatch(/score/);
  });
});

// Two instances on one PostgreSQL and Redis: a score recorded on one shows in the other's statistics within 5 s.
const shared = process.env.DATABASE_URL && process.env.REDIS_URL ? describe : describe.skip;

shared('feedback scores in stats on two instances (skipped unless DATABASE_URL and REDIS_URL are set)', () => {
  const { a, b, tenant } = useTwoInstances();

  it('shows a score recorded on one instance in the statistics of the other within 5 s', async () => {
    const endpointId = (await createEndpoint(a, tenant.admin)).id;
    await declare(a, tenant, { name: 'helpful', dataType: 'boolean' });
    const entry = logEntry(tenant.id, endpointId, { createdAt: new Date(Date.now() - 2 * HOUR) });
    await writeLogs(a, [entry]);
    const query = `endpointId=${endpointId}&score=helpful`;
    expect((await stats(b, tenant, query)).totals.scores.count).toBe(0);
    await score(a, tenant, entry.requestId, 'helpful', true);
    const started = Date.now();
    await eventually(async () => (await stats(b, tenant, query)).totals.scores.count === 1, 'the score on B', {
      timeoutMs: 5_000,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
