import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { connectMcp, toolText } from '../support/mcp-client';
import { captureStdout, useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';
import { streamCall } from '../support/sse-client';
import { logOf } from '../support/log-rows';

/** What a provider may say about the operator's own account: it must reach the service log only. */
const SECRET = 'org-Zq81SecretOrgId proj_7f3SecretProject';
const PROVIDER_TEXT = `Rate limit reached for gpt-4o-mini in organization ${SECRET} on tokens per min`;

/**
 * A provider's error text never reaches a caller or a log row: callers get our message naming the provider and the
 * status class, on plain calls, streams, test runs and MCP; the provider's text goes to the service log, at warn with
 * the request id.
 */
describe("provider error texts stay in the service's own log", () => {
  const { t, tenant, fake } = useTestApp({ env: { LOG_LEVEL: 'warn' }, fake: { providers: true }, listen: true });
  const lines = captureStdout();

  /** The service log's warn line for the request, which carries the provider's own text. */
  function serviceLogOf(requestId: string): any[] {
    return lines
      .filter((line) => line.includes(requestId))
      .map((line) => JSON.parse(line))
      .filter((line) => line.level === 'warn' && line.providerMessage !== undefined);
  }

  async function endpointOn(llmModel: string) {
    const endpoint = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'text', dataType: 'string' }] });
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'Say {{ inputs.text }}', llmModel });
    return { ...endpoint, prompt };
  }

  it.each([
    ['openai', 'gpt-4o-mini', 429, 'rate limited (429)'],
    ['anthropic', 'claude-sonnet-4-5', 401, 'authentication failed (401)'],
    ['google', 'gemini-2.5-flash', 503, 'server error (503)'],
    ['local', 'llama-test', 403, 'permission denied (403)'],
  ])(
    '%s: a plain call answers our message, the log row keeps it, the service log has the text',
    async (provider, model, status, kind) => {
      const endpoint = await endpointOn(model);
      fake.reply({ status, message: PROVIDER_TEXT });
      const res = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({ text: 'hi' });
      const message = `the provider '${provider}' refused the call: ${kind}`;
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ error: 'upstream_error', message });
      const requestId = res.headers['x-request-id'];
      const log = await logOf(t, tenant.admin, requestId);
      expect(log).toMatchObject({
        status: 'error',
        httpStatus: 502,
        errorCode: 'upstream_error',
        errorMessage: message,
      });
      expect(log.attempts).toEqual([expect.objectContaining({ httpStatus: status, errorMessage: message })]);
      expect(JSON.stringify(log)).not.toContain('SecretOrgId');
      const [warned] = serviceLogOf(requestId);
      expect(warned).toMatchObject({ msg: message, requestId, providerStatus: status });
      expect(warned.providerMessage).toContain(SECRET);
    },
  );

  const streamOf = (path: string) =>
    streamCall(`${t.url}${path}`, { ...auth(tenant.endpointKey), accept: 'text/event-stream' }, { text: 'hi' });
  /** The provider's text is neither in the stream nor in the log row, only in the service's own log. */
  async function expectTextOnlyInServiceLog(call: Awaited<ReturnType<typeof streamCall>>): Promise<void> {
    expect(JSON.stringify(call.events)).not.toContain('SecretOrgId');
    const requestId = call.headers.get('x-request-id')!;
    expect(JSON.stringify(await logOf(t, tenant.admin, requestId))).not.toContain('SecretOrgId');
    expect(serviceLogOf(requestId)[0].providerMessage).toContain(SECRET);
  }

  it("a stream's error event carries our message, never the provider's text", async () => {
    const endpoint = await endpointOn('gpt-4o-mini');
    fake.reply({ status: 429, message: PROVIDER_TEXT });
    const call = await streamOf(endpoint.path);
    expect(call.status).toBe(200);
    const error = call.events.find((event) => event.event === 'error');
    expect(error?.data).toEqual({
      error: 'upstream_error',
      message: "the provider 'openai' refused the call: rate limited (429)",
    });
    await expectTextOnlyInServiceLog(call);
  });

  it('an error the provider sends inside its stream is told in our words after what was sent', async () => {
    const endpoint = await endpointOn('claude-sonnet-4-5');
    fake.reply({ text: 'Hello there, how are you', streamError: PROVIDER_TEXT });
    const call = await streamOf(endpoint.path);
    expect(call.events.map((event) => event.event)).toEqual(['start', 'delta', 'error']);
    expect(call.events.at(-1)!.data).toEqual({
      error: 'upstream_error',
      message: "the provider 'anthropic' reported an error while answering",
    });
    await expectTextOnlyInServiceLog(call);
  });

  it('a test run and MCP run_endpoint answer the same message', async () => {
    const endpoint = await endpointOn('gpt-4o-mini');
    fake.reply({ status: 429, message: PROVIDER_TEXT }, { status: 429, message: PROVIDER_TEXT });
    const message = "the provider 'openai' refused the call: rate limited (429)";
    const tested = await t.http
      .post(`/admin/v1/endpoints/${endpoint.id}/test`)
      .set(auth(tenant.admin))
      .send({ promptId: endpoint.prompt.id, inputs: { text: 'hi' } });
    expect(tested.status).toBe(502);
    expect(tested.body).toEqual({ succeeded: false, messages: [message], data: null });

    const client = await connectMcp(t.url, tenant.admin);
    try {
      const result = await client.callTool({
        name: 'run_endpoint',
        arguments: { endpointId: endpoint.id, inputs: { text: 'hi' } },
      });
      expect(result.isError).toBe(true);
      expect(toolText(result)).toContain(message);
      expect(JSON.stringify(result)).not.toContain('SecretOrgId');
    } finally {
      await client.close();
    }
    expect(fake.requests).toHaveLength(2);
  });
});
