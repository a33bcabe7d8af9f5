import { endpointWithPrompt } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';
import { logOf } from '../support/log-rows';

// The execution's answer and its log row are built from one outcome: for a miss, a hit and a failure, what the caller
// got (status, X-Cache, body) is what the row records.
describe('execution answer and log row', () => {
  const { t, tenant, fake } = useTestApp({ fake: {} });

  const logRowOf = (requestId: string) => logOf(t, tenant.admin, requestId);

  async function cachedEndpoint() {
    const { endpoint } = await endpointWithPrompt(
      t,
      tenant.admin,
      { template: 'Echo {{ inputs.text }}', llmModel: 'llama-test' },
      { cacheEnabled: true, cacheDurationSeconds: 60 },
    );
    return endpoint;
  }

  const execute = (endpointPath: string, body: object) =>
    t.http.post(endpointPath).set(auth(tenant.endpointKey)).send(body);

  it('agree on a miss and on the hit that follows', async () => {
    const endpoint = await cachedEndpoint();
    fake.reply({ text: '"fresh"', inputTokens: 7, outputTokens: 3 });
    const miss = await execute(endpoint.path, { text: 'a' });
    const hit = await execute(endpoint.path, { text: 'a' });
    expect([miss.status, miss.headers['x-cache'], miss.body]).toEqual([200, 'MISS', 'fresh']);
    expect([hit.status, hit.headers['x-cache'], hit.body]).toEqual([200, 'HIT', 'fresh']);

    const success = (cached: boolean, parsedOutput: unknown, tokens: [number, number] | [null, null]) => ({
      status: 'success',
      httpStatus: 200,
      cached,
      parsedOutput,
      inputTokens: tokens[0],
      outputTokens: tokens[1],
    });
    const missRow = await logRowOf(miss.headers['x-request-id']);
    expect(missRow).toMatchObject(success(false, miss.body, [7, 3]));
    const hitRow = await logRowOf(hit.headers['x-request-id']);
    expect(hitRow).toMatchObject(success(true, hit.body, [null, null]));
    expect(hitRow.renderedPrompt).toBe(missRow.renderedPrompt);
  });

  it('agree on a failure: the row records the status, code and message the caller got, with what was known', async () => {
    const endpoint = await cachedEndpoint();
    fake.reply({ status: 500, message: 'provider broke' });
    const failed = await execute(endpoint.path, { text: 'b' });
    expect(failed.status).toBe(502);
    expect(failed.headers['x-cache']).toBe('MISS');

    const row = await logRowOf(failed.headers['x-request-id']);
    expect(row).toMatchObject({
      status: 'error',
      httpStatus: failed.status,
      errorCode: failed.body.error,
      errorMessage: failed.body.message,
      cached: false,
      renderedPrompt: 'Echo b',
      llmModel: 'llama-test',
    });
  });

  it('agree on a failure before the prompt is known: no X-Cache, the validation answer logged', async () => {
    const endpoint = await cachedEndpoint();
    const invalid = await execute(endpoint.path, {});
    expect(invalid.status).toBe(400);
    expect(invalid.headers['x-cache']).toBeUndefined();
    const row = await logRowOf(invalid.headers['x-request-id']);
    expect(row).toMatchObject({
      status: 'error',
      httpStatus: 400,
      errorCode: invalid.body.error,
      errorMessage: invalid.body.message,
      promptId: null,
    });
    expect(fake.requests).toHaveLength(0);
  });
});
