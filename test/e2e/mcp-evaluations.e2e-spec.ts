import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { useTestApp } from '../support/app-suite';
import { createEndpoint } from '../support/endpoint-fixtures';
import { connectMcp, toolJson, toolText } from '../support/mcp-client';
import { auth } from '../support/seed';

/** The evaluations toolset: datasets and their items over MCP, under the admin API's rules. */
describe('MCP evaluation tools', () => {
  const { t, tenant, other } = useTestApp({
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

  it('serves the dataset tools as the evaluations toolset', async () => {
    const res = await t.http
      .post('/mcp?toolsets=evaluations')
      .set({ accept: 'application/json, text/event-stream', 'content-type': 'application/json' })
      .set('authorization', `Bearer ${tenant.admin}`)
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(
      expect.arrayContaining(['list_datasets', 'add_dataset_items']),
    );
  });
});
