import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ForwardProxy } from '../../../test/support/forward-proxy';
import { captureRequest, createHttpFetch, httpFetch, type OpenEventStream, replayResponse } from './http-fetch';
import { AnswerTooLargeError } from './llm-client';

/** A real server on 127.0.0.1: each test sets how it answers. */
let answer: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('httpFetch', () => {
  it('sends the method, path with query, headers and body, and answers status, headers and body', async () => {
    answer = (req, res, body) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.writeHead(201);
      res.end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization, body }));
    };
    const response = await httpFetch(`${base}/v1/chat?x=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"é":"ü ✓"}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    await expect(response.json()).resolves.toEqual({
      method: 'POST',
      url: '/v1/chat?x=1',
      auth: 'Bearer k',
      body: '{"é":"ü ✓"}',
    });
  });

  it('takes Headers and byte bodies as the provider clients pass them', async () => {
    answer = (req, res, body) => res.end(`${String(req.headers['x-one'])}|${body}`);
    const response = await httpFetch(new URL(`${base}/bytes`), {
      method: 'POST',
      headers: new Headers({ 'x-one': '1' }),
      body: new TextEncoder().encode('bytes'),
    });
    await expect(response.text()).resolves.toBe('1|bytes');
  });

  it('answers an error status with its body, and a 204 without one', async () => {
    answer = (_req, res) => {
      res.writeHead(429, { 'retry-after': '3' });
      res.end('{"error":"slow down"}');
    };
    const limited = await httpFetch(`${base}/limited`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    await expect(limited.text()).resolves.toBe('{"error":"slow down"}');
    answer = (_req, res) => {
      res.writeHead(204);
      res.end();
    };
    const empty = await httpFetch(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it('hands an event stream over as it arrives', async () => {
    let finish: () => void = () => undefined;
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      finish = () => res.end('data: two\n\n');
    };
    const response = await httpFetch(`${base}/stream`, { method: 'POST', body: '{}' });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString()).toBe('data: one\n\n');
    finish();
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read())
      rest += Buffer.from(part.value).toString();
    expect(rest).toBe('data: two\n\n');
  });

  it('rejects with the abort reason when aborted before the answer, and when already aborted', async () => {
    answer = () => undefined; // never answers
    const controller = new AbortController();
    const pending = httpFetch(`${base}/slow`, { signal: controller.signal });
    const reason = new Error('deadline');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await expect(httpFetch(`${base}/slow`, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it('ends a streamed body with an error when aborted after it started', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
    };
    const controller = new AbortController();
    const response = await httpFetch(`${base}/stream-abort`, { method: 'POST', body: '{}', signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort(new Error('deadline'));
    await expect(reader.read()).rejects.toBeDefined();
  });

  it('rejects an unreachable server with a fetch failure whose cause carries the network code', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const failure = await httpFetch(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toMatch(/^fetch failed/);
    expect(((failure as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('rejects a connection dropped before the answer with a fetch failure', async () => {
    answer = (req) => req.socket.destroy();
    const failure = await httpFetch(`${base}/drop`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toMatch(/^fetch failed/);
  });

  describe('past maxAnswerBytes', () => {
    /** Writes `pieces` chunks of 1 KiB, 10 ms apart; `closed` resolves with whether the client left before the end. */
    function pacedAnswer(contentType: string, pieces: number): Promise<boolean> {
      return new Promise((closed) => {
        answer = (_req, res) => {
          res.writeHead(200, { 'content-type': contentType });
          let sent = 0;
          const timer = setInterval(() => {
            if (res.destroyed) return;
            if (++sent === pieces) {
              clearInterval(timer);
              res.end('x'.repeat(1024));
            } else res.write('x'.repeat(1024));
          }, 10);
          res.on('close', () => {
            clearInterval(timer);
            closed(!res.writableFinished);
          });
        };
      });
    }

    it('answers a body within the bound, and refuses one whose length says it is larger before reading it', async () => {
      answer = (_req, res) => res.end('x'.repeat(4096));
      expect(await (await httpFetch(`${base}/within`, {}, 4096)).text()).toHaveLength(4096);
      await expect(httpFetch(`${base}/declared`, {}, 4095)).rejects.toBeInstanceOf(AnswerTooLargeError);
    });

    it('stops reading a buffered body and closes the connection once it passes the bound', async () => {
      const closedEarly = pacedAnswer('application/json', 100);
      const failure = await httpFetch(`${base}/paced`, {}, 8 * 1024).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AnswerTooLargeError);
      expect((failure as Error).message).toBe("the model's answer is too large");
      await expect(closedEarly).resolves.toBe(true);
    });

    it('errors a streamed body and closes the connection once it passes the bound', async () => {
      const closedEarly = pacedAnswer('text/event-stream', 100);
      const response = await httpFetch(`${base}/paced-stream`, {}, 8 * 1024);
      const reader = response.body!.getReader();
      let received = 0;
      const failure = await (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return null;
          received += value.length;
        }
      })().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AnswerTooLargeError);
      expect(received).toBeLessThanOrEqual(9 * 1024);
      await expect(closedEarly).resolves.toBe(true);
    });
  });
});

describe('event streams handed over, requests captured and answers replayed', () => {
  const sse = (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end('data: one\n\n');
  };

  it('eventStream hands a 200 event stream over as its body, and reads any other answer', async () => {
    const { eventStream } = createHttpFetch(undefined);
    answer = sse;
    const opened = (await eventStream(`${base}/s`, { method: 'POST' }, 1000)) as OpenEventStream;
    expect(opened).not.toBeInstanceOf(Response);
    expect(opened.maxAnswerBytes).toBe(1000);
    const chunks: Buffer[] = [];
    for await (const chunk of opened.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('data: one\n\n');
    answer = (_req, res) => res.writeHead(429, { 'retry-after': '2' }).end('{"error":{"message":"slow"}}');
    const refused = await eventStream(`${base}/s`, { method: 'POST' }, 1000);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(429);
    await expect((refused as Response).text()).resolves.toBe('{"error":{"message":"slow"}}');
  });

  it('jsonAnswer hands a 200 JSON answer over as its text, within the bound, and answers any other as a Response', async () => {
    const { jsonAnswer } = createHttpFetch(undefined);
    answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"é":"ü"}');
    await expect(jsonAnswer(`${base}/j`, { method: 'POST' }, 1000)).resolves.toEqual({ json: '{"é":"ü"}' });
    // Past the bound, declared or as it arrives: refused, the connection closed.
    const big = JSON.stringify({ text: 'x'.repeat(2000) });
    answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(big);
    await expect(jsonAnswer(`${base}/j`, { method: 'POST' }, 1000)).rejects.toBeInstanceOf(AnswerTooLargeError);
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(big.slice(0, 900));
      setTimeout(() => res.end(big.slice(900)), 20);
    };
    await expect(jsonAnswer(`${base}/j`, { method: 'POST' }, 1000)).rejects.toBeInstanceOf(AnswerTooLargeError);
    for (const [status, type] of [
      [429, 'application/json'],
      [200, 'text/plain'],
      [200, 'application/jsonp'],
    ] as const) {
      answer = (_req, res) => res.writeHead(status, { 'content-type': type }).end('{"error":"no"}');
      const other = await jsonAnswer(`${base}/j`, { method: 'POST' }, 1000);
      expect(other).toBeInstanceOf(Response);
      expect((other as Response).status).toBe(status);
      await expect((other as Response).text()).resolves.toBe('{"error":"no"}');
    }
  });

  it('captureRequest keeps the request a caller would send, sending nothing; replayResponse answers it', async () => {
    let served = 0;
    answer = (_req, res) => {
      served++;
      res.end('sent');
    };
    const signal = new AbortController().signal;
    const call = () => httpFetch(`${base}/v1/x`, { method: 'POST', body: '{"a":1}', signal });
    const captured = await captureRequest(signal, call);
    expect(captured).toEqual({ input: `${base}/v1/x`, init: { method: 'POST', body: '{"a":1}', signal } });
    const replayed = await replayResponse(signal, new Response('kept'), call);
    await expect(replayed.text()).resolves.toBe('kept');
    // Neither was sent; afterwards the signal's calls are sent again.
    expect(served).toBe(0);
    await expect((await call()).text()).resolves.toBe('sent');
    expect(served).toBe(1);
  });

  it('captureRequest passes a failure before the fetch on, and declines a signal another capture holds', async () => {
    const signal = new AbortController().signal;
    await expect(captureRequest(signal, () => Promise.reject(new Error('bad settings')))).rejects.toThrow(
      'bad settings',
    );
    const inner = captureRequest(signal, () => captureRequest(signal, () => Promise.resolve()));
    await expect(inner).rejects.toThrow('The provider library answered without sending its request');
  });
});

describe('createHttpFetch with an egress proxy', () => {
  let proxy: ForwardProxy;

  beforeAll(async () => {
    proxy = await ForwardProxy.start();
  });
  afterAll(() => proxy.close());
  beforeEach(() => (proxy.seen.length = 0));

  it('without a proxy is the direct httpFetch', () => {
    expect(createHttpFetch(undefined).fetch).toBe(httpFetch);
  });

  it('hands event streams over through the proxy too', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: proxied\n\n');
    };
    const { eventStream, close } = createHttpFetch({ httpProxy: proxy.url });
    try {
      const opened = (await eventStream(`${base}/v1/s`, { method: 'POST', body: 'x' }, 1000)) as OpenEventStream;
      const chunks: Buffer[] = [];
      for await (const chunk of opened.body) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).toString()).toBe('data: proxied\n\n');
      expect(proxy.seen).toEqual([`POST ${new URL(base).host}/v1/s`]);
    } finally {
      await close();
    }
  });

  it('sends http:// calls through HTTP_PROXY, answering what the origin answered', async () => {
    answer = (req, res, body) => res.end(`${req.method} ${req.url} ${body}`);
    const { fetch, close } = createHttpFetch({ httpProxy: proxy.url });
    try {
      const response = await fetch(`${base}/v1/chat?x=1`, { method: 'POST', body: 'hi' });
      await expect(response.text()).resolves.toBe('POST /v1/chat?x=1 hi');
      expect(proxy.seen).toEqual([`POST ${new URL(base).host}/v1/chat`]);
    } finally {
      await close();
    }
  });

  it('tunnels https:// calls through HTTPS_PROXY with CONNECT', async () => {
    const { fetch, close } = createHttpFetch({ httpsProxy: proxy.url });
    try {
      // The test proxy refuses every tunnel: the call fails, after the proxy was asked for it.
      await expect(fetch('https://api.provider.test/v1/chat', { method: 'POST', body: '{}' })).rejects.toThrow(
        /^fetch failed/,
      );
      expect(proxy.seen).toEqual(['CONNECT api.provider.test:443']);
    } finally {
      await close();
    }
  });

  it('reaches the hosts NO_PROXY lists directly, and only those', async () => {
    answer = (_req, res) => res.end('direct or not');
    const port = new URL(base).port;
    const { fetch, close } = createHttpFetch({ httpProxy: proxy.url, noProxy: 'example.test, localhost' });
    try {
      await expect((await fetch(`http://localhost:${port}/exempt`)).text()).resolves.toBe('direct or not');
      await expect((await fetch(`http://127.0.0.1:${port}/proxied`)).text()).resolves.toBe('direct or not');
      expect(proxy.seen).toEqual([`GET 127.0.0.1:${port}/proxied`]);
    } finally {
      await close();
    }
  });

  it('reads no proxy from the environment itself: only the configuration sets one', async () => {
    answer = (_req, res) => res.end('direct');
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = proxy.url;
    const { fetch, close } = createHttpFetch({ httpsProxy: 'http://127.0.0.1:9' });
    try {
      await expect((await fetch(`${base}/plain`)).text()).resolves.toBe('direct');
      expect(proxy.seen).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
      await close();
    }
  });
});
