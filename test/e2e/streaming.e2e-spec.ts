import { createEndpoint, createPrompt, endpointWithPrompt } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';
import { namesOf, type StreamedCall, streamCall } from '../support/sse-client';
import { logOfRequest } from '../support/log-rows';

const SSE = { accept: 'text/event-stream' };

/**
 * Streamed executions (`Accept: text/event-stream` or `?stream=true`) through every provider adapter against the fake
 * provider's real streaming wire formats, and through mock-echo: the events, the errors before and after the model is
 * called, the cache, the deadline, a client that leaves, and the log row of each.
 */
describe('streamed executions', () => {
  const { t, tenant, fake } = useTestApp({ fake: { providers: true }, listen: true });

  const stream = (endpointPath: string, body: unknown, headers: Record<string, string> = SSE) =>
    streamCall(`${t.url}${endpointPath}`, { ...auth(tenant.endpointKey), ...headers }, body);

  async function logOf(requestId: string): Promise<any> {
    const { summary, detail } = await logOfRequest(t, tenant.admin, requestId);
    // The list shows the streaming columns as the detail does.
    expect(summary).toMatchObject({
      streamed: detail.streamed,
      ttftMs: detail.ttftMs,
      finishReason: detail.finishReason,
    });
    return detail;
  }

  const textOf = (call: StreamedCall) =>
    call.events
      .filter((event) => event.event === 'delta')
      .map((event) => event.data.text)
      .join('');

  async function rawEndpoint(llmModel: string, settings: Record<string, unknown> = {}) {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
      ...settings,
    });
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'Say {{ inputs.text }}', llmModel });
    return { ...endpoint, promptId: prompt.id };
  }

  describe('through each provider, in its streaming wire format', () => {
    const providers: [string, string, string][] = [
      ['OpenAI (Responses events)', 'gpt-4o-mini', '/v1/responses'],
      ['Anthropic (message events)', 'claude-sonnet-4-5', '/v1/messages'],
      ['Google (Gemini stream)', 'gemini-2.5-flash', '/v1beta/models/gemini-2.5-flash:streamGenerateContent'],
      ['OpenAI-compatible (chat completion chunks)', 'llama-test', '/local/v1/chat/completions'],
    ];
    it.each(providers)('%s: start, the text in deltas, done with the usage', async (_name, model, providerPath) => {
      const endpoint = await rawEndpoint(model);
      fake.reply({ text: 'Hello there, streaming world!', inputTokens: 21, outputTokens: 9, stream: { chunks: 5 } });
      const call = await stream(endpoint.path, { text: 'hi' });
      expect(call.status).toBe(200);
      expect(call.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const requestId = call.headers.get('x-request-id')!;
      expect(requestId).toBeTruthy();
      expect(call.headers.get('x-ratelimit-limit')).toBeTruthy();
      expect(call.headers.get('x-ratelimit-remaining')).toBeTruthy();
      expect(call.headers.get('x-cache')).toBe('BYPASS');
      expect(call.headers.get('x-prompt')).toMatch(/^[a-z0-9-]+@1$/);
      const names = namesOf(call);
      expect(names[0]).toBe('start');
      expect(names.at(-1)).toBe('done');
      expect(names.filter((name) => name === 'delta').length).toBeGreaterThanOrEqual(2);
      expect(call.events[0].data).toEqual({
        requestId,
        promptId: endpoint.promptId,
        promptVersion: 1,
        llmModel: model,
        cached: false,
      });
      expect(textOf(call)).toBe('Hello there, streaming world!');
      expect(call.events.at(-1)!.data).toEqual({
        output: 'Hello there, streaming world!',
        usage: { inputTokens: 21, outputTokens: 9 },
        // The local model has no price in the model list.
        costUsd: model === 'llama-test' ? null : expect.any(Number),
        finishReason: 'stop',
      });
      const sent = fake.last();
      expect(sent.path).toBe(providerPath);
      if (sent.route !== 'google.streamGenerateContent') expect(sent.body.stream).toBe(true);
      expect(JSON.stringify(sent.body)).toContain('Say hi');
    });
  });

  it('mock-echo streams its answer in pieces; `done` holds the body the plain call answers', async () => {
    const endpoint = await rawEndpoint('mock-echo');
    const call = await stream(endpoint.path, { text: 'a longer sentence to echo back' });
    expect(namesOf(call)).toEqual(['start', 'delta', 'delta', 'delta', 'delta', 'done']);
    expect(textOf(call)).toBe('Say a longer sentence to echo back');
    const plain = await t.http
      .post(endpoint.path)
      .set(auth(tenant.endpointKey))
      .send({ text: 'a longer sentence to echo back' });
    expect(plain.status).toBe(200);
    expect(call.events.at(-1)!.data.output).toEqual(plain.body);
    expect(call.events.at(-1)!.data.finishReason).toBe('stop');
  });

  it('?stream=true streams without the Accept header; any other value than true or false is a 400', async () => {
    const endpoint = await rawEndpoint('mock-echo');
    const call = await stream(`${endpoint.path}?stream=true`, { text: 'x' }, {});
    expect(namesOf(call)).toContain('done');
    const plain = await stream(`${endpoint.path}?stream=false`, { text: 'x' }, {});
    expect(plain.status).toBe(200);
    expect(plain.body).toBe('Say x');
    const wrong = await stream(`${endpoint.path}?stream=yes`, { text: 'x' }, {});
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'validation_error', field: 'stream' });
  });

  it('test runs never stream: asked for an event stream, they answer their JSON envelope', async () => {
    const endpoint = await rawEndpoint('mock-echo');
    const run = await t.http
      .post(`/admin/v1/endpoints/${endpoint.id}/test?stream=true`)
      .set({ ...auth(tenant.admin), ...SSE })
      .send({ promptId: endpoint.promptId, inputs: { text: 'x' } });
    expect(run.status).toBe(200);
    expect(run.headers['content-type']).toMatch(/^application\/json/);
    expect(run.body.data.output).toBe('Say x');
    expect((await logOf(run.headers['x-request-id'])).streamed).toBe(false);
  });

  describe('endpoints with output fields', () => {
    let endpoint: { id: string; path: string };
    beforeAll(async () => {
      endpoint = await createEndpoint(t, tenant.admin, {
        inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
        outputs: [
          { name: 'summary', dataType: 'string' },
          { name: 'score', dataType: 'integer' },
        ],
      });
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'Rate {{ inputs.text }}', llmModel: 'gpt-4o-mini' });
    });

    it('partial objects, at most one per 50 ms, then done with the validated object', async () => {
      const answer = '{"summary":"A rather long summary of the text given, in one sentence.","score":8,"extra":1}';
      fake.reply({ text: answer, stream: { chunks: 30, chunkDelayMs: 8 } });
      const call = await stream(endpoint.path, { text: 'hello' });
      const partials = call.events.filter((event) => event.event === 'partial');
      expect(partials.length).toBeGreaterThanOrEqual(2);
      // 30 chunks 8 ms apart would be 30 partials unthrottled.
      expect(partials.length).toBeLessThan(15);
      // Measured where they arrive, so one may come a little early behind a late one, and on a loaded machine the first
      // may arrive late: on average they are about 50 ms apart (a second partial sent right behind a due one would
      // bring the average to 36 ms or less).
      const span = partials.at(-1)!.atMs - partials[0].atMs;
      expect(span / (partials.length - 1)).toBeGreaterThanOrEqual(40);
      expect(typeof partials[0].data.output).toBe('object');
      expect(call.events.at(-1)).toMatchObject({
        event: 'done',
        data: { output: { summary: 'A rather long summary of the text given, in one sentence.', score: 8 } },
      });
      expect(fake.last().body.text.format.type).toBe('json_schema');
    });

    it('an answer off the output fields ends with an upstream_error event, as the plain call is a 502', async () => {
      fake.reply({ text: '{"summary":"ok","score":"high"}' });
      const call = await stream(endpoint.path, { text: 'off' });
      expect(call.status).toBe(200);
      expect(namesOf(call)[0]).toBe('start');
      expect(call.events.at(-1)).toEqual({
        event: 'error',
        data: { error: 'upstream_error', message: expect.stringContaining("'score'") },
        atMs: expect.any(Number),
      });
      const log = await logOf(call.headers.get('x-request-id')!);
      expect(log).toMatchObject({ status: 'error', httpStatus: 502, errorCode: 'upstream_error', streamed: true });
    });

    it('mock-echo streams partial objects too', async () => {
      const { endpoint: mock } = await endpointWithPrompt(
        t,
        tenant.admin,
        { template: '{{ inputs.text }}' },
        { outputs: [{ name: 'echo', dataType: 'string' }] },
      );
      const call = await stream(mock.path, { text: 'abcdefgh' });
      expect(namesOf(call)[0]).toBe('start');
      expect(namesOf(call)).toContain('partial');
      expect(call.events.at(-1)!.data.output).toEqual({ echo: 'abcdefgh' });
    });
  });

  it('a provider failure after the start is an error event (upstream_error), logged once', async () => {
    const endpoint = await rawEndpoint('gpt-4o-mini');
    fake.reply({ status: 500, message: 'The server had an error' });
    const call = await stream(endpoint.path, { text: 'x' });
    expect(call.status).toBe(200);
    expect(namesOf(call)).toEqual(['start', 'error']);
    expect(call.events[1].data).toEqual({
      error: 'upstream_error',
      message: "the provider 'openai' refused the call: server error (500)",
    });
    const log = await logOf(call.headers.get('x-request-id')!);
    expect(log).toMatchObject({ status: 'error', errorCode: 'upstream_error', streamed: true, ttftMs: null });
  });

  describe('errors found before the model is called stay JSON answers', () => {
    it('validation: 400 JSON, logged as not streamed', async () => {
      const endpoint = await rawEndpoint('mock-echo');
      const call = await stream(endpoint.path, {});
      expect(call.status).toBe(400);
      expect(call.headers.get('content-type')).toMatch(/^application\/json/);
      expect(call.body).toMatchObject({ error: 'validation_error', field: 'text' });
      expect(fake.requests).toHaveLength(0);
      // Answered as JSON, it is logged as a plain call.
      const log = await logOf(call.headers.get('x-request-id')!);
      expect(log).toMatchObject({ status: 'error', httpStatus: 400, streamed: false, ttftMs: null });
    });

    it('a missing key: 401 JSON', async () => {
      const endpoint = await rawEndpoint('mock-echo');
      const call = await streamCall(`${t.url}${endpoint.path}`, SSE, { text: 'x' });
      expect(call.status).toBe(401);
      expect(call.body.error).toBe('unauthorized');
    });

    it('an image endpoint asked to stream: 400 validation_error naming `stream`', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, {
        inputs: [{ name: 'subject', dataType: 'string', isRequired: true }],
        outputs: [{ name: 'image', dataType: 'image' }],
      });
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'Draw {{ inputs.subject }}' });
      const call = await stream(endpoint.path, { subject: 'a cat' });
      expect(call.status).toBe(400);
      expect(call.body).toMatchObject({ error: 'validation_error', field: 'stream' });
      const viaQuery = await stream(`${endpoint.path}?stream=true`, { subject: 'a cat' }, {});
      expect(viaQuery.status).toBe(400);
      expect(viaQuery.body.field).toBe('stream');
    });
  });

  describe('the response cache', () => {
    it('a hit is replayed as start (cached), one delta and done; streamed and plain calls share the entry', async () => {
      const endpoint = await rawEndpoint('gpt-4o-mini', { cacheEnabled: true, cacheDurationSeconds: 60 });
      fake.reply({ text: 'Cached answer text', stream: { chunks: 4 } });
      const first = await stream(endpoint.path, { text: 'same' });
      expect(first.headers.get('x-cache')).toBe('MISS');
      expect(textOf(first)).toBe('Cached answer text');

      // The streamed answer was stored: the plain call of the same request is a hit.
      const plain = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({ text: 'same' });
      expect(plain.headers['x-cache']).toBe('HIT');
      expect(plain.body).toBe('Cached answer text');

      const replay = await stream(endpoint.path, { text: 'same' });
      expect(replay.headers.get('x-cache')).toBe('HIT');
      expect(namesOf(replay)).toEqual(['start', 'delta', 'done']);
      expect(replay.events[0].data).toMatchObject({ cached: true, llmModel: 'gpt-4o-mini', promptVersion: 1 });
      expect(replay.events[1].data).toEqual({ text: 'Cached answer text' });
      expect(replay.events[2].data).toEqual({
        output: 'Cached answer text',
        usage: { inputTokens: 0, outputTokens: 0 },
        costUsd: 0,
        finishReason: 'stop',
      });
      expect(fake.requests).toHaveLength(1);
      const log = await logOf(replay.headers.get('x-request-id')!);
      expect(log).toMatchObject({ cached: true, streamed: true, finishReason: 'stop' });
      expect(log.ttftMs).toBeGreaterThanOrEqual(0);
    });

    it('a plain answer is replayed to a streamed call; a failed stream is not stored', async () => {
      const endpoint = await rawEndpoint('gpt-4o-mini', { cacheEnabled: true, cacheDurationSeconds: 60 });
      fake.reply({ status: 500, message: 'broken' });
      const failed = await stream(endpoint.path, { text: 'p' });
      expect(namesOf(failed)).toEqual(['start', 'error']);
      fake.reply({ text: 'plain first' });
      const plain = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({ text: 'p' });
      expect(plain.headers['x-cache']).toBe('MISS');
      const replay = await stream(endpoint.path, { text: 'p' });
      expect(namesOf(replay)).toEqual(['start', 'delta', 'done']);
      expect(replay.events[2].data.output).toBe('plain first');
    });
  });

  describe('fails over only before its first piece', () => {
    /** An endpoint of gpt-4o-mini (with `settings`) whose prompt falls back to claude-sonnet-4-5. */
    async function withFallback(settings: Record<string, unknown> = {}) {
      const endpoint = await rawEndpoint('gpt-4o-mini', settings);
      await t.http
        .put(`/admin/v1/prompts/${endpoint.promptId}`)
        .set(auth(tenant.admin))
        .send({ fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }] })
        .expect(200);
      return endpoint;
    }

    it('a model that fails before answering hands over to the fallback, which `start` names', async () => {
      const endpoint = await withFallback();
      fake.reply({ status: 503, message: 'overloaded' }, { text: 'From the fallback.', stream: { chunks: 3 } });
      const call = await stream(endpoint.path, { text: 'x' });
      expect(call.status).toBe(200);
      expect(namesOf(call)[0]).toBe('start');
      expect(call.events[0].data).toMatchObject({ llmModel: 'claude-sonnet-4-5', cached: false });
      expect(namesOf(call).filter((name) => name === 'start')).toHaveLength(1);
      expect(textOf(call)).toBe('From the fallback.');
      expect(namesOf(call).at(-1)).toBe('done');
      const log = await logOf(call.headers.get('x-request-id')!);
      expect(log).toMatchObject({ status: 'success', llmModel: 'claude-sonnet-4-5', streamed: true });
      expect(log.attempts.map((attempt: any) => [attempt.llmModel, attempt.outcome, attempt.httpStatus])).toEqual([
        ['gpt-4o-mini', 'error', 503],
        ['claude-sonnet-4-5', 'success', null],
      ]);
    });

    it('a model that started answering keeps the time past its share, and is never failed over', async () => {
      // 2 s with one fallback: the first model's share is 1 s, but it sent a piece at once, so it keeps going until
      // the endpoint's timeout ends the stream; the fallback is never called.
      const endpoint = await withFallback({ timeoutSeconds: 2 });
      fake.reply({ text: 'one two three four five six', stream: { chunks: 6, chunkDelayMs: 600 } });
      const call = await stream(endpoint.path, { text: 'x' });
      expect(call.events[0].data).toMatchObject({ llmModel: 'gpt-4o-mini' });
      expect(namesOf(call)).toContain('delta');
      expect(namesOf(call).at(-1)).toBe('error');
      expect(call.events.at(-1)!.data.error).toBe('timeout');
      // Still answering after its 1 s share: the deltas kept coming until the 2 s timeout.
      const deltas = call.events.filter((event) => event.event === 'delta');
      expect(deltas.at(-1)!.atMs).toBeGreaterThan(1100);
      expect(fake.requests).toHaveLength(1);
      const log = await logOf(call.headers.get('x-request-id')!);
      expect(log).toMatchObject({ status: 'error', errorCode: 'timeout', llmModel: 'gpt-4o-mini' });
      expect(log.attempts).toHaveLength(1);
    });

    it('a model silent past its share fails over to the fallback', async () => {
      const endpoint = await withFallback({ timeoutSeconds: 4 });
      fake.reply({ text: 'too late', stream: { firstChunkMs: 3500 } }, { text: 'in time' });
      const call = await stream(endpoint.path, { text: 'x' });
      expect(call.events[0].data).toMatchObject({ llmModel: 'claude-sonnet-4-5' });
      expect(textOf(call)).toBe('in time');
      const log = await logOf(call.headers.get('x-request-id')!);
      expect(log.attempts.map((attempt: any) => [attempt.llmModel, attempt.outcome])).toEqual([
        ['gpt-4o-mini', 'timeout'],
        ['claude-sonnet-4-5', 'success'],
      ]);
    });
  });

  it('timeoutSeconds bounds the whole stream: an error event `timeout` once it is over', async () => {
    const endpoint = await rawEndpoint('claude-sonnet-4-5', { timeoutSeconds: 1 });
    fake.reply({ text: 'slow slow slow slow slow slow slow', stream: { chunks: 10, chunkDelayMs: 300 } });
    const started = Date.now();
    const call = await stream(endpoint.path, { text: 'x' });
    expect(Date.now() - started).toBeLessThan(2500);
    const names = namesOf(call);
    expect(names[0]).toBe('start');
    expect(names).toContain('delta');
    expect(names.at(-1)).toBe('error');
    expect(call.events.at(-1)!.data.error).toBe('timeout');
    const log = await logOf(call.headers.get('x-request-id')!);
    expect(log).toMatchObject({ status: 'error', httpStatus: 504, errorCode: 'timeout', streamed: true });
    expect(log.ttftMs).toBeGreaterThanOrEqual(0);
  });

  it('a client that disconnects aborts the provider call; the call is logged once with client_closed', async () => {
    const endpoint = await rawEndpoint('gemini-2.5-flash', { cacheEnabled: true, cacheDurationSeconds: 60 });
    fake.reply({ text: 'a long answer nobody will read to the end', stream: { chunks: 20, chunkDelayMs: 100 } });
    const call = await streamCall(
      `${t.url}${endpoint.path}`,
      { ...auth(tenant.endpointKey), ...SSE },
      { text: 'bye' },
      (event) => event.event === 'delta',
    );
    expect(namesOf(call)).toEqual(['start', 'delta']);
    const requestId = call.headers.get('x-request-id')!;
    const log = await logOf(requestId);
    expect(log).toMatchObject({ status: 'error', httpStatus: 499, errorCode: 'client_closed', streamed: true });
    expect(log.ttftMs).toBeGreaterThanOrEqual(0);
    // The provider saw its stream closed before the end.
    const deadline = Date.now() + 2000;
    while (!fake.last().closedEarly && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.last().closedEarly).toBe(true);
    // Nothing was stored: the next call reaches the provider again.
    fake.reply({ text: 'complete' });
    const again = await stream(endpoint.path, { text: 'bye' });
    expect(again.headers.get('x-cache')).toBe('MISS');
    expect(textOf(again)).toBe('complete');
  });

  it('the log fields: streamed, ttftMs and finishReason for streamed calls; plain calls streamed false, ttftMs null', async () => {
    const endpoint = await rawEndpoint('llama-test');
    fake.reply({ text: 'first piece after a while', stream: { firstChunkMs: 120, chunks: 3 } });
    const call = await stream(endpoint.path, { text: 'x' });
    const streamed = await logOf(call.headers.get('x-request-id')!);
    expect(streamed).toMatchObject({ status: 'success', streamed: true, finishReason: 'stop', errorCode: null });
    expect(streamed.ttftMs).toBeGreaterThanOrEqual(100);
    expect(streamed.ttftMs).toBeLessThanOrEqual(streamed.latencyMs);

    fake.reply({ text: 'plain' });
    const plain = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({ text: 'x' });
    const plainLog = await logOf(plain.headers['x-request-id']);
    expect(plainLog).toMatchObject({ streamed: false, ttftMs: null, finishReason: 'stop' });
  });
});
