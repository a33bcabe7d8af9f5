import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import { KeysService } from '../../src/modules/keys/keys.service';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { auth } from '../support/seed';
import { type StreamedCall, streamCall } from '../support/sse-client';
import { eventually, sleep } from '../support/eventually';
import { useTestApp } from '../support/app-suite';
import { logsOf } from '../support/log-rows';

const SSE = { accept: 'text/event-stream' };
/** Small bounds, so that a client that stops reading and a key's streams are tested in a second. */
const WRITE_TIMEOUT_MS = 300;
const STREAMS_PER_KEY = 2;

/**
 * What a caller costs the service is bounded by what it reads: a structured stream costs work in proportion to its
 * answer, however many pieces the provider sends it in; a client that reads nothing of its stream has it closed after
 * STREAM_WRITE_TIMEOUT_MS; a key has at most MAX_STREAMS_PER_KEY streams open; and a plain call whose client leaves
 * stops its provider call and the attempts after it. On the adapter HTTP_ADAPTER selects.
 */
describe('what a caller can hold: streams and calls bounded by their client', () => {
  const { t, tenant, fake } = useTestApp({
    fake: { providers: true },
    env: {
      STREAM_WRITE_TIMEOUT_MS: String(WRITE_TIMEOUT_MS),
      MAX_STREAMS_PER_KEY: String(STREAMS_PER_KEY),
      // The stalled reader's stream is megabytes long: the answer bound must not end it first.
      MAX_ANSWER_BYTES: String(64 * 1024 * 1024),
    },
    listen: true,
  });
  let port: number;

  beforeAll(() => {
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });

  /** The one log row of the endpoint (its caller left, so its request id was never read), once it is written. */
  async function onlyLogOf(endpointId: string): Promise<any> {
    const rows = await logsOf(t, tenant.admin, endpointId);
    expect(rows).toHaveLength(1);
    return (await t.http.get(`/admin/v1/logs/${rows[0].id}`).set(auth(tenant.admin))).body.data;
  }

  const until = (condition: () => boolean, what: string) => eventually(condition, what);

  async function endpointWith(llmModel: string, outputs: { name: string; dataType: string }[] = [], prompt = {}) {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
      outputs,
    });
    const created = await createPrompt(t, tenant.admin, endpoint.id, {
      template: 'Write {{ inputs.text }}',
      llmModel,
      ...prompt,
    });
    return { ...endpoint, promptId: created.id };
  }

  /**
   * A call on a connection of its own (the test closes it by destroying `request`): `ended` tells whether an answer
   * came or the connection closed first. Not through fetch, whose shared connection pool may connect again for a
   * request it has cancelled and then hold that connection open.
   */
  function openCall(path: string, headers: Record<string, string> = {}) {
    const body = JSON.stringify({ text: 'x' });
    const request = http.request(`${t.url}${path}`, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': body.length,
        ...auth(tenant.endpointKey),
        ...headers,
      },
    });
    const ended = new Promise<'answered' | 'closed'>((resolve) => {
      request.on('response', (response) => {
        response.resume();
        response.on('end', () => resolve('answered'));
        response.on('error', () => resolve('closed'));
      });
      request.on('error', () => resolve('closed'));
      request.on('close', () => resolve('closed'));
    });
    request.end(body);
    return { request, ended };
  }

  /** The stream of `path` read to its end, timed, with /health asked every few milliseconds meanwhile. */
  async function timedStream(path: string): Promise<{ call: StreamedCall; ms: number; healthMs: number[] }> {
    const healthMs: number[] = [];
    let streaming = true;
    const probe = (async () => {
      while (streaming) {
        const startedMs = performance.now();
        const health = await fetch(`${t.url}/health`);
        await health.text();
        healthMs.push(performance.now() - startedMs);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const startedMs = performance.now();
    const call = await streamCall(`${t.url}${path}`, { ...auth(tenant.endpointKey), ...SSE }, { text: 'x' });
    const ms = performance.now() - startedMs;
    streaming = false;
    await probe;
    return { call, ms, healthMs };
  }

  describe('a structured answer in many small pieces', () => {
    it('costs what the same pieces cost as raw text: partial objects are built when due, /health answers meanwhile', async () => {
      // An ~80 KB object in 20,000 pieces, as a provider streams it token by token.
      const answer = JSON.stringify({ story: 'word '.repeat(16_000) });
      const structured = await endpointWith('gpt-4o-mini', [{ name: 'story', dataType: 'string' }]);
      const raw = await endpointWith('gpt-4o-mini');
      // Once each first, so that neither measure pays for loading code.
      fake.reply({ text: answer, stream: { chunks: 2000 } }, { text: answer, stream: { chunks: 2000 } });
      await timedStream(structured.path);
      await timedStream(raw.path);

      fake.reply({ text: answer, stream: { chunks: 20_000 } });
      const asText = await timedStream(raw.path);
      fake.reply({ text: answer, stream: { chunks: 20_000 } });
      const asObject = await timedStream(structured.path);

      const { events } = asObject.call;
      expect(events.at(-1)).toMatchObject({ event: 'done', data: { output: JSON.parse(answer) } });
      const partials = events.filter((event) => event.event === 'partial');
      expect(partials.length).toBeGreaterThanOrEqual(1);
      // At most one per 50 ms where they are sent; where they arrive a loaded machine bunches them, so with slack: a
      // handful, never one per piece.
      expect(partials.length).toBeLessThanOrEqual(Math.ceil(asObject.ms / 40) + 3);
      for (const partial of partials)
        expect(answer.startsWith(JSON.stringify(partial.data.output).slice(0, -2))).toBe(true);
      // Parsing the whole text at every piece made this about 14 times the raw text's time; the bench holds the
      // tighter figure, this bound only has to survive a loaded machine.
      expect(asObject.ms).toBeLessThan(3 * asText.ms + 500);
      expect(asObject.healthMs.length).toBeGreaterThan(0);
      expect(Math.max(...asObject.healthMs)).toBeLessThan(1000);
    });
  });

  describe('a client that reads nothing of its stream', () => {
    it('has its stream closed after STREAM_WRITE_TIMEOUT_MS; the provider call is aborted, logged client_closed', async () => {
      const endpoint = await endpointWith('claude-sonnet-4-5');
      // Megabytes, slowly enough that the provider is still sending when the stream is closed.
      fake.reply({ text: 'x'.repeat(8 * 1024 * 1024), stream: { chunks: 1600, chunkDelayMs: 4 } });
      const body = JSON.stringify({ text: 'a lot' });
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.pause();
      socket.write(
        `POST ${endpoint.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${tenant.endpointKey}\r\n` +
          `Accept: text/event-stream\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      try {
        await until(() => fake.requests.length === 1, 'the provider call');
        await until(() => fake.last().closedEarly === true, 'the provider call to be aborted');
        const log = await onlyLogOf(endpoint.id);
        expect(log).toMatchObject({ status: 'error', httpStatus: 499, errorCode: 'client_closed', streamed: true });
        expect(log.errorMessage).toContain(`read nothing of the event stream for ${WRITE_TIMEOUT_MS} ms`);
      } finally {
        socket.destroy();
      }
    });

    it('is closed too when the service has ended it with most of it still unsent: the key gets its place back', async () => {
      // mock-echo answers at once, each of 40 string fields holding the 512 KB prompt: the service writes the whole
      // stream (tens of megabytes, more than the system's buffers hold) and ends it before the client has read any.
      const template = `{% assign s = "xxxxxxxx" %}${'{% assign s = s | append: s %}'.repeat(16)}{{ s }}`;
      const outputs = Array.from({ length: 40 }, (_, index) => ({ name: `field${index}`, dataType: 'string' }));
      const endpoint = await endpointWith('mock-echo', outputs, { template });
      const body = JSON.stringify({ text: 'all at once' });
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      let received = 0;
      socket.once('data', (chunk: Buffer) => {
        received = chunk.length;
        socket.pause();
      });
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST ${endpoint.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${tenant.endpointKey}\r\n` +
          `Accept: text/event-stream\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      try {
        await until(() => received > 0, 'the stream to start');
        // While the stalled stream holds one of the key's two places, a pair of other streams cannot both open; once
        // the service has closed it, they can.
        const other = await endpointWith('mock-echo');
        const stream = () =>
          streamCall(`${t.url}${other.path}`, { ...auth(tenant.endpointKey), ...SSE }, { text: 'y' });
        await eventually(async () => {
          const statuses = (await Promise.all([stream(), stream()])).map((call) => call.status);
          return statuses.every((status) => status === 200);
        }, "the key's two places free again");
        // The call itself was answered in full before its client stopped reading.
        expect(await onlyLogOf(endpoint.id)).toMatchObject({ status: 'success', streamed: true });
      } finally {
        socket.destroy();
      }
    });

    it('a client that reads, however slowly, keeps its stream', async () => {
      const endpoint = await endpointWith('claude-sonnet-4-5');
      fake.reply({ text: 'y'.repeat(600), stream: { chunks: 6, chunkDelayMs: WRITE_TIMEOUT_MS } });
      const call = await streamCall(`${t.url}${endpoint.path}`, { ...auth(tenant.endpointKey), ...SSE }, { text: 'x' });
      expect(call.events.at(-1)).toMatchObject({ event: 'done', data: { output: 'y'.repeat(600) } });
    });
  });

  describe('MAX_STREAMS_PER_KEY', () => {
    it('refuses one more stream of a key with 429 and Retry-After; another key and a freed place are unaffected', async () => {
      const endpoint = await endpointWith('gpt-4o-mini');
      const other = await t.app
        .get(KeysService)
        .create(tenant.id, { name: 'other caller', type: 'endpoint', environment: 'live' });
      // Streams whose provider has not answered yet: open, holding their place.
      fake.reply(
        { text: 'held', stream: { firstChunkMs: 20_000 } },
        { text: 'held', stream: { firstChunkMs: 20_000 } },
        { text: 'other key' },
        { text: 'after one ended' },
      );
      const held = Array.from({ length: STREAMS_PER_KEY }, () => openCall(endpoint.path, SSE));
      try {
        await until(() => fake.requests.length === STREAMS_PER_KEY, 'the held streams');
        const refused = await streamCall(`${t.url}${endpoint.path}`, { ...auth(tenant.endpointKey), ...SSE }, {});
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('1');
        expect(refused.body).toEqual({
          error: 'rate_limit_exceeded',
          message: expect.stringContaining(`${STREAMS_PER_KEY} event streams open`),
          retry_after: 1,
        });
        // Refused before any work: no provider call, and a plain call of the same key is not a stream.
        expect(fake.requests).toHaveLength(STREAMS_PER_KEY);

        const otherKey = await streamCall(`${t.url}${endpoint.path}`, { ...auth(other.key), ...SSE }, { text: 'x' });
        expect(otherKey.status).toBe(200);
        expect(otherKey.events.at(-1)).toMatchObject({ event: 'done', data: { output: 'other key' } });

        held[0].request.destroy();
        await until(() => fake.requests[0].closedEarly === true, 'the first held stream to end');
        const again = await streamCall(
          `${t.url}${endpoint.path}`,
          { ...auth(tenant.endpointKey), ...SSE },
          { text: 'x' },
        );
        expect(again.status).toBe(200);
        expect(again.events.at(-1)).toMatchObject({ event: 'done', data: { output: 'after one ended' } });
      } finally {
        for (const call of held) call.request.destroy();
        await Promise.all(held.map((call) => call.ended));
      }
    });
  });

  describe('a plain call whose client leaves', () => {
    it('aborts the provider call and makes no further attempt; logged client_closed', async () => {
      const endpoint = await endpointWith('gpt-4o-mini', [], {
        retries: 2,
        fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }],
      });
      // Each attempt would fail over to the next: a slow answer that never comes, then more of them.
      fake.reply({ text: 'too late', delayMs: 8000 }, { text: 'retry' }, { text: 'retry' }, { text: 'fallback' });
      // Its own connection, closed by the client while the provider call waits for its answer.
      const call = openCall(endpoint.path);
      await until(() => fake.requests.length === 1, 'the provider call');
      call.request.destroy();
      await expect(call.ended).resolves.toBe('closed');
      await until(() => fake.last().closedEarly === true, 'the provider call to be aborted');
      const log = await onlyLogOf(endpoint.id);
      expect(log).toMatchObject({ status: 'error', httpStatus: 499, errorCode: 'client_closed', streamed: false });
      expect(log.attempts).toHaveLength(1);
      // No retry and no fallback reached the provider.
      expect(fake.requests).toHaveLength(1);
    });

    it("leaving while a retry waits for the provider's Retry-After: the retry is never made", async () => {
      const endpoint = await endpointWith('gpt-4o-mini', [], { retries: 2 });
      fake.reply({ status: 429, message: 'slow down', retryAfter: '5' }, { text: 'retry' }, { text: 'retry' });
      const call = openCall(endpoint.path);
      await until(() => fake.requests[0]?.answered === true, 'the first attempt to be refused');
      // The 429 has left the provider; a moment for the service to read it and start waiting.
      await sleep(50);
      call.request.destroy();
      await expect(call.ended).resolves.toBe('closed');
      const log = await onlyLogOf(endpoint.id);
      expect(log).toMatchObject({ status: 'error', httpStatus: 499, errorCode: 'client_closed', streamed: false });
      // Logged well before the 5 s wait was over, with the one attempt made.
      expect(log.latencyMs).toBeLessThan(4000);
      expect(log.attempts.map((attempt: any) => attempt.httpStatus)).toEqual([429]);
      expect(fake.requests).toHaveLength(1);
    });
  });
});
