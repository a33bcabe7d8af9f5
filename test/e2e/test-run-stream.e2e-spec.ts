import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { eventually } from '../support/eventually';
import { auth } from '../support/seed';
import { namesOf, type StreamedCall, streamCall } from '../support/sse-client';
import { UUID } from '../support/envelope';
import { logOfRequest } from '../support/log-rows';

/**
 * POST /admin/v1/endpoints/{id}/test/stream: the test runner's run as an event stream, from the provider's real
 * streaming wire format to `done` with what the plain test run answers; the run of an earlier version (`version`,
 * plain and streamed); failures before and after the stream opens; a client that leaves.
 */
describe('streamed test runs (POST /admin/v1/endpoints/{id}/test/stream)', () => {
  const { t, tenant, fake } = useTestApp({ fake: { providers: true }, listen: true });

  const streamRun = (endpointId: string, body: unknown, key = tenant.admin, until?: Parameters<typeof streamCall>[3]) =>
    streamCall(`${t.url}/admin/v1/endpoints/${endpointId}/test/stream`, auth(key), body, until);
  const plainRun = (endpointId: string, body: unknown) =>
    t.http
      .post(`/admin/v1/endpoints/${endpointId}/test`)
      .set(auth(tenant.admin))
      .send(body as object);
  const logOf = async (id: string) => (await t.http.get(`/admin/v1/logs/${id}`).set(auth(tenant.admin))).body.data;
  const textOf = (call: StreamedCall) =>
    call.events
      .filter((event) => event.event === 'delta')
      .map((event) => event.data.text)
      .join('');

  async function textEndpoint(template = 'Say {{ inputs.text }}') {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template, llmModel: 'gpt-4o-mini' }, 'Draft');
    return { endpoint, prompt };
  }

  beforeEach(() => fake.reset());

  it('streams the text in deltas, then done with the test run: output, rendered prompt, version, cost and the log row', async () => {
    const { endpoint, prompt } = await textEndpoint();
    fake.reply({ text: 'Hello there, streaming world!', inputTokens: 21, outputTokens: 9, stream: { chunks: 5 } });
    const call = await streamRun(endpoint.id, { promptId: prompt.id, inputs: { text: 'hi' } });
    expect(call.status).toBe(200);
    expect(call.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const names = namesOf(call);
    expect(names[0]).toBe('start');
    expect(names.filter((name) => name === 'delta').length).toBeGreaterThanOrEqual(2);
    expect(names.at(-1)).toBe('done');
    expect(call.events[0].data).toMatchObject({
      requestId: call.headers.get('x-request-id'),
      promptId: prompt.id,
      promptVersion: 1,
      llmModel: 'gpt-4o-mini',
      cached: false,
    });
    expect(textOf(call)).toBe('Hello there, streaming world!');
    const done = call.events.at(-1)!.data;
    expect(done).toMatchObject({
      output: 'Hello there, streaming world!',
      renderedPrompt: 'Say hi',
      renderedMessages: [{ role: 'user', content: 'Say hi' }],
      promptId: prompt.id,
      promptVersion: 1,
      unsaved: false,
      llmModel: 'gpt-4o-mini',
      usage: { inputTokens: 21, outputTokens: 9 },
      logId: expect.stringMatching(UUID),
    });
    expect(done.costUsd).toBeGreaterThan(0);
    expect(done.latencyMs).toBeGreaterThanOrEqual(0);
    // The provider was asked for a stream, and the log row is there as soon as `done` is.
    expect(fake.last().body.stream).toBe(true);
    expect(await logOf(done.logId)).toMatchObject({
      source: 'TestPage',
      status: 'success',
      streamed: true,
      promptId: prompt.id,
      costUsd: done.costUsd,
    });
  });

  it('streams partial objects of an endpoint with output fields, and done with the validated object', async () => {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
      outputs: [
        { name: 'summary', dataType: 'string' },
        { name: 'score', dataType: 'integer' },
      ],
    });
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, {
      template: 'Rate {{ inputs.text }}',
      llmModel: 'gpt-4o-mini',
    });
    fake.reply({
      text: '{"summary":"A rather long summary of the text, in one sentence.","score":8}',
      stream: { chunks: 20, chunkDelayMs: 10 },
    });
    const call = await streamRun(endpoint.id, { promptId: prompt.id, inputs: { text: 'hello' } });
    const partials = call.events.filter((event) => event.event === 'partial');
    expect(partials.length).toBeGreaterThanOrEqual(1);
    expect(typeof partials[0].data.output).toBe('object');
    expect(call.events.at(-1)).toMatchObject({
      event: 'done',
      data: { output: { summary: 'A rather long summary of the text, in one sentence.', score: 8 } },
    });
  });

  it('runs unsaved text: start names no prompt, done says the run was unsaved', async () => {
    const { endpoint } = await textEndpoint();
    fake.reply({ text: 'From the editor', stream: { chunks: 3 } });
    const call = await streamRun(endpoint.id, {
      prompt: {
        template: '{% system %}Be brief.{% endsystem %}{% user %}Echo {{ inputs.text }}{% enduser %}',
        llmModel: 'gpt-4o-mini',
      },
      inputs: { text: 'this' },
    });
    expect(call.events[0]).toMatchObject({ event: 'start', data: { promptId: null, promptVersion: null } });
    expect(call.events.at(-1)).toMatchObject({
      event: 'done',
      data: {
        output: 'From the editor',
        unsaved: true,
        promptId: null,
        promptVersion: null,
        renderedMessages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Echo this' },
        ],
      },
    });
  });

  it('runs an earlier version of a prompt, plain and streamed, by `version`', async () => {
    const { endpoint, prompt } = await textEndpoint('First {{ inputs.text }}');
    const saved = await t.http
      .put(`/admin/v1/prompts/${prompt.id}`)
      .set(auth(tenant.admin))
      .send({ template: 'Second {{ inputs.text }}' });
    expect(saved.status).toBe(200);

    fake.reply({ text: 'old' }, { text: 'new' }, { text: 'old, streamed', stream: { chunks: 2 } });
    const first = await plainRun(endpoint.id, { promptId: prompt.id, version: 1, inputs: { text: 'go' } });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ renderedPrompt: 'First go', promptVersion: 1, output: 'old' });
    const current = await plainRun(endpoint.id, { promptId: prompt.id, inputs: { text: 'go' } });
    expect(current.body.data).toMatchObject({ renderedPrompt: 'Second go', promptVersion: 2 });
    const streamed = await streamRun(endpoint.id, { promptId: prompt.id, version: 1, inputs: { text: 'go' } });
    expect(streamed.events[0].data).toMatchObject({ promptId: prompt.id, promptVersion: 1 });
    expect(streamed.events.at(-1)!.data).toMatchObject({ renderedPrompt: 'First go', promptVersion: 1 });
    expect(await logOf(streamed.events.at(-1)!.data.logId)).toMatchObject({ promptId: prompt.id, promptVersion: 1 });

    const missing = await plainRun(endpoint.id, { promptId: prompt.id, version: 9, inputs: { text: 'go' } });
    expect(missing.status).toBe(404);
    expect(missing.body.messages).toEqual([`Version 9 of prompt ${prompt.id} not found`]);
    const withText = await plainRun(endpoint.id, { prompt: { template: 'x', llmModel: 'mock-echo' }, version: 1 });
    expect(withText.status).toBe(400);
    expect(withText.body.messages).toEqual(['version names a version of a saved prompt: give it with promptId']);
    for (const version of [0, 1.5, '2', 2147483648]) {
      const bad = await plainRun(endpoint.id, { promptId: prompt.id, version, inputs: { text: 'go' } });
      expect([version, bad.status]).toEqual([version, 400]);
      expect(bad.body.messages.join(' ')).toMatch(/^version /);
    }
  });

  it('a failure before the model is called is the plain JSON error, with its log row', async () => {
    const { endpoint, prompt } = await textEndpoint();
    const call = await streamRun(endpoint.id, { promptId: prompt.id, inputs: {} });
    expect(call.status).toBe(400);
    expect(call.headers.get('content-type')).toMatch(/^application\/json/);
    expect(call.body).toMatchObject({ succeeded: false });
    expect(call.body.messages.join(' ')).toMatch(/text/);
    expect(fake.requests).toHaveLength(0);

    const image = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'subject', dataType: 'string', isRequired: true }],
      outputs: [{ name: 'image', dataType: 'image' }],
    });
    const imagePrompt = await createPrompt(t, tenant.admin, image.id, { template: 'Draw {{ inputs.subject }}' });
    const imageCall = await streamRun(image.id, { promptId: imagePrompt.id, inputs: { subject: 'a cat' } });
    expect(imageCall.status).toBe(400);
    expect(imageCall.body.messages).toEqual([
      'An image endpoint answers only once its images are generated: it cannot stream',
    ]);
  });

  it('a provider failure once the stream is open ends it with error naming the log row', async () => {
    const { endpoint, prompt } = await textEndpoint();
    fake.reply({ status: 400, message: 'bad request upstream' });
    const call = await streamRun(endpoint.id, { promptId: prompt.id, inputs: { text: 'hi' } });
    expect(call.status).toBe(200);
    expect(namesOf(call)).toEqual(['start', 'error']);
    const failure = call.events.at(-1)!.data;
    expect(failure).toMatchObject({ error: 'upstream_error', logId: expect.stringMatching(UUID) });
    expect(Object.keys(failure).sort()).toEqual(['error', 'logId', 'message']);
    expect(await logOf(failure.logId)).toMatchObject({ status: 'error', source: 'TestPage', streamed: true });
  });

  it('a client that leaves stops the provider call; the run is logged as client_closed', async () => {
    const { endpoint, prompt } = await textEndpoint();
    fake.reply({ text: 'a long answer nobody will read to the end', stream: { chunks: 20, chunkDelayMs: 100 } });
    const call = await streamRun(
      endpoint.id,
      { promptId: prompt.id, inputs: { text: 'bye' } },
      tenant.admin,
      (event) => event.event === 'delta',
    );
    expect(namesOf(call)).toEqual(['start', 'delta']);
    await eventually(() => fake.last().closedEarly === true, 'the provider call to be closed');
    const requestId = call.headers.get('x-request-id')!;
    const { detail: row } = await logOfRequest(t, tenant.admin, requestId);
    expect(row).toMatchObject({ errorCode: 'client_closed', streamed: true, source: 'TestPage' });
  });

  it('takes ReadOnly admin keys, not endpoint keys; the plain test route never streams', async () => {
    const { endpoint, prompt } = await textEndpoint();
    fake.reply({ text: 'read only', stream: { chunks: 2 } }, { text: 'plain' });
    const byReader = await streamRun(endpoint.id, { promptId: prompt.id, inputs: { text: 'x' } }, tenant.readOnly);
    expect(namesOf(byReader).at(-1)).toBe('done');
    const byEndpointKey = await streamRun(
      endpoint.id,
      { promptId: prompt.id, inputs: { text: 'x' } },
      tenant.endpointKey,
    );
    expect(byEndpointKey.status).toBe(403);
    const plain = await t.http
      .post(`/admin/v1/endpoints/${endpoint.id}/test`)
      .set({ ...auth(tenant.admin), accept: 'text/event-stream' })
      .send({ promptId: prompt.id, inputs: { text: 'x' } });
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.body.data.output).toBe('plain');
  });
});
