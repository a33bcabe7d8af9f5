import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { auth } from '../support/seed';
import { expectAccessible, screenshot, useDashboard } from './support/dashboard';

/**
 * A split between two prompts whose calls were scored by their application (through the execution API, outside the
 * browser): the endpoint page compares the prompts by a chosen score, each with its interval and verdict.
 */
describe('Dashboard: quality of a traffic split', () => {
  const h = useDashboard({ setUp: () => seed() });
  let endpointId = '';
  /** Calls per prompt, and how many of them were scored helpful. */
  const CALLS = 40;
  const HELPFUL = { friendly: 36, terse: 8 };

  async function seed(): Promise<void> {
    const endpoint = await h.createEndpoint({ name: 'Support', inputs: [{ name: 'text', dataType: 'string' }] });
    endpointId = endpoint.id;
    const friendly = await h.createPrompt(endpoint.id, {
      name: 'Friendly',
      template: 'friendly {{ inputs.text }}',
      llmModel: 'mock-echo',
    });
    const terse = await h.createPrompt(
      endpoint.id,
      { name: 'Terse', template: 'terse {{ inputs.text }}', llmModel: 'mock-echo' },
      'Live',
    );
    await h.t.http
      .put(`/admin/v1/endpoints/${endpoint.id}`)
      .set(h.admin())
      .send({
        trafficSplit: {
          variants: [
            { promptId: friendly.id, weight: 50 },
            { promptId: terse.id, weight: 50 },
          ],
          stickyBy: 'none',
        },
      })
      .expect(200);
    for (const config of [
      { name: 'helpful', dataType: 'boolean' },
      { name: 'stars', dataType: 'numeric', minimum: 1, maximum: 5 },
      { name: 'tone', dataType: 'categorical', categories: ['warm', 'cold'] },
    ])
      await h.t.http.post('/admin/v1/score-configs').set(h.admin()).send(config).expect(201);

    // A key of its own, allowed more calls a minute than the seeded one.
    const caller = (
      await h.t.http
        .post('/admin/v1/keys')
        .set(h.admin())
        .send({ name: 'busy caller', type: 'endpoint', environment: 'live', rateLimitPerMinute: 1000 })
        .expect(201)
    ).body.data.key as string;
    const requestIds: { prompt: 'friendly' | 'terse'; requestId: string }[] = [];
    for (const prompt of ['friendly', 'terse'] as const)
      for (let call = 0; call < CALLS; call++) {
        const response = await h.t.http
          .post(`${endpoint.path}?prompt=${prompt}`)
          .set(auth(caller))
          .send({ text: `question ${call}` })
          .expect(200);
        requestIds.push({ prompt, requestId: response.headers['x-request-id'] });
      }
    await h.t.app.get(ExecutionLogsService).flush();
    const seen = { friendly: 0, terse: 0 };
    for (const { prompt, requestId } of requestIds) {
      const helpful = seen[prompt]++ < HELPFUL[prompt];
      await h.t.http
        .post('/api/v1/_scores')
        .set(auth(caller))
        .send({ requestId, name: 'helpful', value: helpful })
        .expect(201);
    }
  }

  it('compares the split’s prompts by a chosen score: share, 95 % interval and verdict', async () => {
    await h.signIn(h.tenant.admin, `/endpoints/${endpointId}`);
    const panel = h.page.getByRole('region', { name: 'Traffic split' });
    const picker = panel.getByLabel('Compare quality by score');
    await picker.locator('option', { hasText: 'stars' }).waitFor({ state: 'attached' });
    // Categorical scores have no mean to compare.
    expect(await picker.locator('option').allInnerTexts()).toEqual(['No quality column', 'helpful', 'stars']);

    await picker.selectOption('helpful');
    const table = panel.getByRole('table', { name: 'Traffic split and figures per prompt' });
    await table.getByRole('columnheader', { name: 'Quality: helpful' }).waitFor();
    const quality = (name: string) =>
      table.getByRole('row', { name: new RegExp(`^${name}`) }).locator('td.split-quality');
    await quality('Friendly').getByText('90 % true').waitFor();
    const api = (
      await h.t.http
        .get(`/admin/v1/stats?endpointId=${endpointId}&groupBy=prompt&score=helpful`)
        .set(h.admin())
        .expect(200)
    ).body.data.groups as { promptName: string; totals: { scores: { ci95: [number, number] } } }[];
    const interval = (name: string) => {
      const [low, high] = api.find((group) => group.promptName === name)!.totals.scores.ci95;
      return `(95 %: ${(low * 100).toFixed(0)}–${(high * 100).toFixed(0)} %)`;
    };
    const friendly = await quality('Friendly').innerText();
    expect(friendly).toContain(interval('Friendly'));
    expect(friendly).toMatch(/40 scores\s+Better/);
    const terse = await quality('Terse').innerText();
    expect(terse).toMatch(/^20 % true/);
    expect(terse).toContain(interval('Terse'));
    expect(terse).toMatch(/40 scores\s+Worse/);
    await panel.scrollIntoViewIfNeeded();
    await screenshot(h.page, 'traffic-split-quality');
    await expectAccessible(h.page, { keyboard: true });

    // A score nobody sent yet: no figures, and no verdict.
    await picker.selectOption('stars');
    await table.getByRole('columnheader', { name: 'Quality: stars' }).waitFor();
    await expect(quality('Friendly').innerText()).resolves.toMatch(/No scores\s+·\s+0 scores/);
    await picker.selectOption('');
    await table.getByRole('columnheader', { name: /^Quality/ }).waitFor({ state: 'detached' });
  });
});
