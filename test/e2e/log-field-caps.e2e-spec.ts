import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { FakeLlmServer } from '../support/fake-llm-server';
import { connectMcp, toolJson } from '../support/mcp-client';
import { auth, SeededTenant, seedTenant } from '../support/seed';
import { createTestApp, TestApp } from '../support/test-app';
import { logOfRequest } from '../support/log-rows';

const MAX = 2048;

/**
 * The first bytes of `text` that fit in `max`, whole characters only, and how many bytes were left out: built a
 * character at a time, independently of the service's byte-wise cut.
 */
function expectedCut(text: string, max: number): { kept: string; cut: number } {
  let kept = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > max) break;
    kept += char;
    bytes += size;
  }
  return { kept, cut: Buffer.byteLength(text, 'utf8') - bytes };
}

const truncated = (text: string) => {
  const { kept, cut } = expectedCut(text, MAX);
  return `${kept}…[truncated ${cut} bytes]`;
};

/**
 * Execution logs keep each of inputs, renderedPrompt, rawResponse and parsedOutput up to LOG_FIELD_MAX_BYTES: a longer
 * one is stored as the string of its first bytes (the text itself, or the JSON text of a JSON value) with a
 * `…[truncated N bytes]` marker, and the log's truncatedFields names it, on the admin API and the MCP tools alike.
 */
describe('execution log field caps', () => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let tenant: SeededTenant;
  let endpoint: { id: string; path: string };
  let mcp: Client;

  beforeAll(async () => {
    fake = await FakeLlmServer.start();
    t = await createTestApp(
      { logFieldMaxBytes: MAX },
      { OPENAI_API_KEY: 'sk-test-openai', OPENAI_BASE_URL: `${fake.url}/v1` },
    );
    await t.app.listen(0, '127.0.0.1');
    tenant = await seedTenant(t.app);
    endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
      outputs: [{ name: 'story', dataType: 'string' }],
    });
    await createPrompt(t, tenant.admin, endpoint.id, { template: 'Tell: {{ inputs.text }}', llmModel: 'gpt-4o-mini' });
    mcp = await connectMcp(await t.app.getUrl(), tenant.readOnly);
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
    await fake?.close();
  });

  const logOf = (requestId: string) => logOfRequest(t, tenant.admin, requestId);

  it('cuts each field longer than the limit at a character boundary, marks it, and lists it in truncatedFields', async () => {
    // "é" is two bytes: after the 9 bytes of `{"text":"` the limit falls inside one, which must not be split.
    const text = 'é'.repeat(3000);
    const story = 'Once upon a time ' + '€'.repeat(1500);
    const answer = JSON.stringify({ story });
    fake.reply({ text: answer, inputTokens: 10, outputTokens: 20 });
    const res = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({ text });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ story }); // the caller gets the whole answer; only the log is cut

    const { summary, detail } = await logOf(res.headers['x-request-id']);
    expect(summary.truncatedFields).toEqual(['inputs', 'renderedPrompt', 'rawResponse', 'parsedOutput']);
    expect(detail.truncatedFields).toEqual(['inputs', 'renderedPrompt', 'rawResponse', 'parsedOutput']);
    // JSON values: the string of their cut JSON text.
    expect(detail.inputs).toBe(truncated(JSON.stringify({ text })));
    expect(detail.parsedOutput).toBe(truncated(JSON.stringify({ story })));
    // Text values: their cut text.
    expect(detail.renderedPrompt).toBe(truncated(`Tell: ${text}`));
    expect(detail.rawResponse).toBe(truncated(answer));

    // The figures the marker gives, worked out by hand for the inputs: 9 + 2 × 1019 = 2047 bytes kept of 6011.
    expect(detail.inputs).toBe(`{"text":"${'é'.repeat(1019)}…[truncated ${6011 - 2047} bytes]`);
    for (const field of ['inputs', 'renderedPrompt', 'rawResponse', 'parsedOutput']) {
      const [, kept] = /^([\s\S]*)…\[truncated \d+ bytes\]$/.exec(detail[field])!;
      expect(Buffer.byteLength(kept, 'utf8')).toBeLessThanOrEqual(MAX);
      expect(kept).not.toContain('\ufffd');
    }
  });

  it('lists only the fields that were cut', async () => {
    // A short input and a long answer: only the answer's two fields are cut.
    const story = 's'.repeat(3000);
    fake.reply({ text: JSON.stringify({ story }) });
    const res = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({ text: 'short' });
    expect(res.status).toBe(200);
    const { detail } = await logOf(res.headers['x-request-id']);
    expect(detail.truncatedFields).toEqual(['rawResponse', 'parsedOutput']);
    expect(detail.inputs).toEqual({ text: 'short' });
    expect(detail.renderedPrompt).toBe('Tell: short');
    expect(detail.rawResponse).toBe(`${JSON.stringify({ story }).slice(0, MAX)}…[truncated ${3000 + 12 - MAX} bytes]`);
    expect(detail.parsedOutput).toBe(`${JSON.stringify({ story }).slice(0, MAX)}…[truncated ${3000 + 12 - MAX} bytes]`);
  });

  it('keeps fields of exactly the limit whole, and a small execution has truncatedFields []', async () => {
    // {"text":"…"} is 11 bytes around the text: the inputs' JSON text is exactly the limit.
    const text = 'x'.repeat(MAX - 11);
    fake.reply({ text: JSON.stringify({ story: 'brief' }) });
    const res = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({ text });
    expect(res.status).toBe(200);
    const { summary, detail } = await logOf(res.headers['x-request-id']);
    expect(summary.truncatedFields).toEqual([]);
    expect(detail).toMatchObject({
      truncatedFields: [],
      inputs: { text },
      renderedPrompt: `Tell: ${text}`,
      rawResponse: '{"story":"brief"}',
      parsedOutput: { story: 'brief' },
    });
  });

  it('shows the same capped fields and truncatedFields through the MCP log tools', async () => {
    const text = 'm'.repeat(MAX + 100);
    fake.reply({ text: JSON.stringify({ story: 'ok' }) });
    const res = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({ text });
    expect(res.status).toBe(200);
    const { detail } = await logOf(res.headers['x-request-id']);
    expect(detail.truncatedFields).toEqual(['inputs', 'renderedPrompt']);

    const listed = toolJson(await mcp.callTool({ name: 'list_logs', arguments: { endpointId: endpoint.id } }));
    const item = listed.items.find((row: { id: string }) => row.id === detail.id);
    expect(item.truncatedFields).toEqual(['inputs', 'renderedPrompt']);
    const viaMcp = toolJson(await mcp.callTool({ name: 'get_log', arguments: { id: detail.id } }));
    expect(viaMcp).toMatchObject({
      truncatedFields: ['inputs', 'renderedPrompt'],
      inputs: `${JSON.stringify({ text }).slice(0, MAX)}…[truncated ${MAX + 100 + 11 - MAX} bytes]`,
      renderedPrompt: `${`Tell: ${text}`.slice(0, MAX)}…[truncated ${MAX + 100 + 6 - MAX} bytes]`,
      rawResponse: '{"story":"ok"}',
      parsedOutput: { story: 'ok' },
    });
  });

  it('reads a row stored before truncatedFields existed as truncatedFields []', async () => {
    // Written as an older version did: without the column.
    const id = randomUUID();
    await t.app.get(DataSource).query(
      `INSERT INTO execution_logs (id, tenant_id, endpoint_id, source, request_id, status, http_status, cached, latency_ms, inputs)
       VALUES ($1, $2, $3, 'Api', $4, 'success', 200, false, 5, '{"text":"old"}'::jsonb)`,
      [id, tenant.id, endpoint.id, `old-${id}`],
    );
    const detail = await t.http.get(`/admin/v1/logs/${id}`).set(auth(tenant.admin));
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ id, truncatedFields: [], inputs: { text: 'old' } });
    const list = await t.http.get(`/admin/v1/logs?endpointId=${endpoint.id}&pageSize=50`).set(auth(tenant.admin));
    expect(list.body.data.items.find((row: { id: string }) => row.id === id).truncatedFields).toEqual([]);
  });
});
