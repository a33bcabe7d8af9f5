import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { useTestApp } from '../support/app-suite';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { connectMcp, toolJson, toolText } from '../support/mcp-client';
import { auth } from '../support/seed';

/** The evaluations toolset: datasets, their items and evaluation runs over MCP, under the admin API's rules. */
describe('MCP evaluation tools', () => {
  const { t, tenant, other, fake } = useTestApp({
    fake: {},
    listen: true,
    other: true,
    env: { ADMIN_RATE_LIMIT_PER_MINUTE: '100000' },
  });
  let writer: Client;
  let reader: Client;

  beforeAll(async () => {
    writer = await connectMcp(t.url, tenant.admin);
    reader = await connectMcp(t.url, tenant.readOnly);
  });
  afterAll(async () => {
    await writer?.close();
    await reader?.close();
  });

  /** An endpoint with a required string `text`, and a dataset `name` of it made over REST. */
  async function endpointWithDataset(name: string): Promise<{ endpointId: string; datasetId: string }> {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true, maxLength: 50 }],
    });
    const created = await t.http
      .post(`/admin/v1/endpoints/${endpoint.id}/datasets`)
      .set(auth(tenant.admin))
      .send({ name, checks: [{ type: 'contains', value: 'ok' }] });
    expect(created.status).toBe(201);
    return { endpointId: endpoint.id, datasetId: created.body.data.id };
  }

  it('lists an endpoint’s datasets as REST does, to a ReadOnly key too', async () => {
    const { endpointId } = await endpointWithDataset('smoke');
    const rest = await t.http.get(`/admin/v1/endpoints/${endpointId}/datasets`).set(auth(tenant.admin));
    const listed = toolJson(await reader.callTool({ name: 'list_datasets', arguments: { endpointId } }));
    expect(listed).toEqual({ items: rest.body.data });
    expect(listed.items[0]).toMatchObject({ name: 'smoke', version: 0, itemCount: 0 });

    const badId = await reader.callTool({ name: 'list_datasets', arguments: { endpointId: 'nope' } });
    expect(badId.isError).toBe(true);
    expect(toolText(badId)).toMatch(/^validation_error: endpointId/);
  });

  it('adds items as the next version, checked as REST checks them', async () => {
    const { datasetId } = await endpointWithDataset('added');
    const added = toolJson(
      await writer.callTool({
        name: 'add_dataset_items',
        arguments: {
          datasetId,
          items: [
            { inputs: { text: 'one' }, expectedOutput: 'ok' },
            { inputs: { text: 'two' }, tags: { team: 'a' } },
          ],
        },
      }),
    );
    expect(added).toEqual({ itemIds: [expect.any(String), expect.any(String)], version: 1, itemCount: 2 });
    const rest = await t.http.get(`/admin/v1/datasets/${datasetId}/items`).set(auth(tenant.admin));
    expect(rest.body.data.items.map((item: { id: string }) => item.id)).toEqual(added.itemIds);

    const badInputs = await writer.callTool({
      name: 'add_dataset_items',
      arguments: { datasetId, items: [{ inputs: { text: 'x'.repeat(51) } }] },
    });
    expect(badInputs.isError).toBe(true);
    expect(toolText(badInputs)).toMatch(/^validation_error: .*items\.0\.inputs\.text/);
    const none = await writer.callTool({ name: 'add_dataset_items', arguments: { datasetId, items: [] } });
    expect(none.isError).toBe(true);
    expect(toolText(none)).toMatch(/^validation_error: items /);
  });

  it('refuses adding items with a ReadOnly key and does not show it the tool', async () => {
    const { datasetId } = await endpointWithDataset('read-only');
    const names = (await reader.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('list_datasets');
    expect(names).not.toContain('add_dataset_items');
    const refused = await reader.callTool({
      name: 'add_dataset_items',
      arguments: { datasetId, items: [{ inputs: { text: 'one' } }] },
    });
    expect(refused.isError).toBe(true);
    expect(toolText(refused)).toMatch(/^forbidden: add_dataset_items changes resources and this admin key is ReadOnly/);
    const rest = await t.http.get(`/admin/v1/datasets/${datasetId}`).set(auth(tenant.admin));
    expect(rest.body.data.itemCount).toBe(0);
  });

  it("keeps tenants apart: another tenant's dataset and endpoint are not found", async () => {
    const { endpointId, datasetId } = await endpointWithDataset('mine');
    const theirs = await connectMcp(t.url, other.admin);
    try {
      const listed = await theirs.callTool({ name: 'list_datasets', arguments: { endpointId } });
      expect(listed.isError).toBe(true);
      expect(toolText(listed)).toMatch(/^not_found:/);
      const added = await theirs.callTool({
        name: 'add_dataset_items',
        arguments: { datasetId, items: [{ inputs: { text: 'one' } }] },
      });
      expect(added.isError).toBe(true);
      expect(toolText(added)).toMatch(/^not_found:/);
    } finally {
      await theirs.close();
    }
  });

  describe('runs', () => {
    /**
     * A dataset of two items checked for "ok" on an endpoint whose default prompt answers "ok", and a Draft candidate
     * that answers "wrong" to the item "bad".
     */
    async function gatedSetup(): Promise<{ datasetId: string; candidateId: string }> {
      const { endpointId, datasetId } = await endpointWithDataset(`runs-${Date.now()}`);
      await createPrompt(t, tenant.admin, endpointId, {
        template: 'Baseline: {{ inputs.text }}',
        llmModel: 'llama-test',
      });
      const candidate = await createPrompt(
        t,
        tenant.admin,
        endpointId,
        { template: 'Candidate: {{ inputs.text }}', llmModel: 'llama-test' },
        'Draft',
      );
      await writer.callTool({
        name: 'add_dataset_items',
        arguments: { datasetId, items: [{ inputs: { text: 'good' } }, { inputs: { text: 'bad' } }] },
      });
      return { datasetId, candidateId: candidate.id };
    }

    beforeEach(() => {
      fake.replyBy((request) => ({ text: JSON.stringify(request.body).includes('Candidate: bad') ? 'wrong' : 'ok' }));
    });

    /** get_evaluation_run until the run has ended. */
    async function ended(id: string, args: object = {}): Promise<any> {
      for (;;) {
        const run = toolJson(await reader.callTool({ name: 'get_evaluation_run', arguments: { id, ...args } }));
        if (['completed', 'failed', 'cancelled'].includes(run.status)) return run;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    it('starts a run as REST does and reads it with its summary and, when asked, its regressed items', async () => {
      const { datasetId, candidateId } = await gatedSetup();
      const started = toolJson(
        await writer.callTool({ name: 'run_evaluation', arguments: { datasetId, promptId: candidateId } }),
      );
      expect(started).toMatchObject({
        datasetId,
        status: 'queued',
        candidate: { promptId: candidateId, versionNumber: 1 },
      });
      const run = await ended(started.id);
      expect(run.status).toBe('completed');
      expect(run).not.toHaveProperty('regressedItems');
      expect(run.summary).toMatchObject({ items: 2, passed: 1, failed: 1, passRate: 0.5, regressions: 1 });
      const rest = await t.http.get(`/admin/v1/eval-runs/${started.id}`).set(auth(tenant.admin));
      expect(run).toEqual(rest.body.data);

      const withItems = toolJson(
        await reader.callTool({ name: 'get_evaluation_run', arguments: { id: started.id, regressedItems: true } }),
      );
      expect(withItems.regressedItems).toEqual([
        {
          itemId: expect.any(String),
          position: 1,
          inputs: { text: 'bad' },
          expectedOutput: null,
          candidate: {
            output: 'wrong',
            failedChecks: [{ type: 'contains', reason: expect.any(String) }],
            errorMessage: null,
          },
          baseline: { output: 'ok', failedChecks: [], errorMessage: null },
        },
      ]);
    });

    it('validates the run as REST does, refuses it to a ReadOnly key, and keeps tenants apart', async () => {
      const { datasetId, candidateId } = await gatedSetup();
      const tooMany = await writer.callTool({
        name: 'run_evaluation',
        arguments: { datasetId, promptId: candidateId, repeats: 6 },
      });
      expect(tooMany.isError).toBe(true);
      expect(toolText(tooMany)).toBe('validation_error: repeats must not be greater than 5');
      expect((await reader.listTools()).tools.map((tool) => tool.name)).not.toContain('run_evaluation');
      const refused = await reader.callTool({
        name: 'run_evaluation',
        arguments: { datasetId, promptId: candidateId },
      });
      expect(refused.isError).toBe(true);
      expect(toolText(refused)).toMatch(/^forbidden: run_evaluation changes resources/);
      const theirs = await connectMcp(t.url, other.admin);
      try {
        const started = await theirs.callTool({
          name: 'run_evaluation',
          arguments: { datasetId, promptId: candidateId },
        });
        expect(toolText(started)).toMatch(/^not_found:/);
        const mine = toolJson(
          await writer.callTool({ name: 'run_evaluation', arguments: { datasetId, promptId: candidateId } }),
        );
        const read = await theirs.callTool({ name: 'get_evaluation_run', arguments: { id: mine.id } });
        expect(toolText(read)).toMatch(/^not_found:/);
        await ended(mine.id);
      } finally {
        await theirs.close();
      }
    });

    it('cannot force a promotion: promote_prompt takes no force', async () => {
      const { candidateId } = await gatedSetup();
      const { tools } = await writer.listTools();
      const promote = tools.find((tool) => tool.name === 'promote_prompt')!;
      expect(Object.keys(promote.inputSchema.properties ?? {})).toEqual(['id']);
      const forced = await writer.callTool({
        name: 'promote_prompt',
        arguments: { id: candidateId, force: true, reason: 'ship it' },
      });
      expect(forced.isError).toBe(true);
      expect(toolText(forced)).toMatch(/^validation_error: property force should not exist/);
    });
  });

  it('serves the dataset and run tools as the evaluations toolset', async () => {
    const res = await t.http
      .post('/mcp?toolsets=evaluations')
      .set({ accept: 'application/json, text/event-stream', 'content-type': 'application/json' })
      .set('authorization', `Bearer ${tenant.admin}`)
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'list_datasets',
      'add_dataset_items',
      'run_evaluation',
      'get_evaluation_run',
    ]);
  });
});
