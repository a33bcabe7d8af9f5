import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { fakeProviderEnv, FakeLlmServer } from '../support/fake-llm-server';
import { ForwardProxy } from '../support/forward-proxy';
import { auth, seedTenant } from '../support/seed';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Provider calls go through the egress proxy of HTTP_PROXY (HTTPS_PROXY for https:// provider URLs), except to the
 * hosts NO_PROXY lists; without either variable they go direct. The fake provider server is reached as `localhost`
 * by the OpenAI adapter and as 127.0.0.1 by the Anthropic one, so NO_PROXY can exempt one of the two.
 */
describe('the egress proxy of provider calls', () => {
  let fake: FakeLlmServer;
  let proxy: ForwardProxy;

  beforeAll(async () => {
    [fake, proxy] = await Promise.all([FakeLlmServer.start(), ForwardProxy.start()]);
  });
  afterAll(async () => {
    await Promise.all([fake.close(), proxy.close()]);
  });
  beforeEach(() => {
    fake.reset();
    proxy.seen.length = 0;
  });

  const port = () => new URL(fake.url).port;
  const providerEnv = () => ({
    ...fakeProviderEnv(fake),
    OPENAI_BASE_URL: `http://localhost:${port()}/v1`,
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${port()}/v1`,
  });

  /** Runs one execution of a prompt on `llmModel` and answers its status. */
  async function execute(t: TestApp, llmModel: string): Promise<number> {
    const tenant = await seedTenant(t.app);
    const endpoint = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'text', dataType: 'string' }] });
    await createPrompt(t, tenant.admin, endpoint.id, { template: 'Say {{ inputs.text }}', llmModel });
    fake.reply({ text: 'proxied or not' });
    const response = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({ text: 'hello' });
    return response.status;
  }

  describe('with HTTP_PROXY and NO_PROXY set', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({}, { ...providerEnv(), HTTP_PROXY: proxy.url, NO_PROXY: 'localhost' });
    });
    afterAll(() => t.close());

    it('sends a provider call through the proxy', async () => {
      await expect(execute(t, 'claude-sonnet-4-5')).resolves.toBe(200);
      expect(proxy.seen).toEqual([`POST 127.0.0.1:${port()}/v1/messages`]);
      expect(fake.last().path).toBe('/v1/messages');
    });

    it('reaches a host NO_PROXY lists directly', async () => {
      await expect(execute(t, 'gpt-4o-mini')).resolves.toBe(200);
      expect(fake.last().path).toBe('/v1/responses');
      expect(proxy.seen).toEqual([]);
    });
  });

  describe('without a proxy variable', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({}, providerEnv());
    });
    afterAll(() => t.close());

    it('sends provider calls direct', async () => {
      await expect(execute(t, 'claude-sonnet-4-5')).resolves.toBe(200);
      expect(fake.last().path).toBe('/v1/messages');
      expect(proxy.seen).toEqual([]);
    });
  });
});
