import * as http from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSE_COALESCE_MS, SseChannel, sseEvent } from './sse-channel';

describe('SseChannel', () => {
  afterEach(() => jest.useRealTimers());

  it('formats an event as its name and one data line of JSON', () => {
    expect(sseEvent('delta', { text: 'two\nlines' })).toBe('event: delta\ndata: {"text":"two\\nlines"}\n\n');
  });

  it('hands a waiting reader the next event, and what waited since the last read in one piece', async () => {
    const channel = new SseChannel(() => undefined);
    const next = channel.next();
    channel.send('start', { a: 1 });
    expect(await next).toEqual({ done: false, value: 'event: start\ndata: {"a":1}\n\n' });
    channel.send('delta', { text: 'x' });
    channel.send('delta', { text: 'y' });
    channel.end();
    expect(await channel.next()).toEqual({
      done: false,
      value: 'event: delta\ndata: {"text":"x"}\n\nevent: delta\ndata: {"text":"y"}\n\n',
    });
    expect(await channel.next()).toEqual({ done: true, value: undefined });
  });

  it('sends a ping comment after the given silence, and again after each new silence', async () => {
    jest.useFakeTimers();
    const channel = new SseChannel(() => undefined, 15_000);
    channel.send('start', {});
    await channel.next();
    jest.advanceTimersByTime(14_000);
    channel.send('delta', { text: 'a' });
    await channel.next();
    jest.advanceTimersByTime(14_999);
    const pending = channel.next();
    jest.advanceTimersByTime(1);
    expect(await pending).toEqual({ done: false, value: ': ping\n\n' });
    channel.end();
  });

  it('return() (the client left) ends the stream and calls onClose once; writes after it are dropped', async () => {
    const onClose = jest.fn();
    const channel = new SseChannel(onClose);
    const pending = channel.next();
    await channel.return();
    expect(await pending).toEqual({ done: true, value: undefined });
    await channel.return();
    channel.send('delta', { text: 'late' });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(channel.isClosedByClient).toBe(true);
    expect(await channel.next()).toEqual({ done: true, value: undefined });
  });

  it('return() after the end is not a client leaving', async () => {
    const onClose = jest.fn();
    const channel = new SseChannel(onClose);
    channel.end();
    await channel.return();
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('SseChannel written straight to a response', () => {
  /** A Node response on a socket pair: what the client reads, and the response to write. */
  async function connection(): Promise<{ response: ServerResponse; received: () => string; close: () => void }> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const responded = new Promise<ServerResponse>((resolve) => server.once('request', (_request, res) => resolve(res)));
    let text = '';
    const request = http.get(`http://127.0.0.1:${port}/`, (answer) => {
      answer.setEncoding('utf8');
      answer.on('data', (piece: string) => (text += piece));
    });
    request.on('error', () => undefined);
    const response = await responded;
    return {
      response,
      received: () => text,
      close: () => {
        request.destroy();
        server.close();
        server.closeAllConnections();
      },
    };
  }

  it('sends its head at once, joins the events of one turn or a short spell in one write, ends with the stream', async () => {
    const { response, received, close } = await connection();
    const write = jest.spyOn(response, 'write');
    const channel = new SseChannel(() => undefined);
    channel.send('start', { a: 1 });
    response.setHeader('Content-Type', 'text/event-stream');
    const written = channel.writeTo(response);
    // What waited goes out with the head.
    expect(write).toHaveBeenCalledTimes(1);
    channel.send('delta', { text: 'x' });
    channel.send('delta', { text: 'y' });
    await Promise.resolve();
    // Right after a write, what follows waits a little for company.
    expect(write).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, SSE_COALESCE_MS + 5));
    expect(write).toHaveBeenCalledTimes(2);
    expect(write.mock.calls[1][0]).toBe('event: delta\ndata: {"text":"x"}\n\nevent: delta\ndata: {"text":"y"}\n\n');
    channel.send('delta', { text: 'z' });
    channel.end();
    await written;
    expect(write).toHaveBeenCalledTimes(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received()).toBe(
      'event: start\ndata: {"a":1}\n\nevent: delta\ndata: {"text":"x"}\n\nevent: delta\ndata: {"text":"y"}\n\n' +
        'event: delta\ndata: {"text":"z"}\n\n',
    );
    close();
  });

  it('a connection closed before the end is the client leaving: onClose runs, and writing stops', async () => {
    const { response, close } = await connection();
    const onClose = jest.fn();
    const channel = new SseChannel(onClose);
    const written = channel.writeTo(response);
    close();
    await written;
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(channel.isClosedByClient).toBe(true);
    channel.send('delta', { text: 'late' });
  });

  it('is full while the response waits to drain, and says when it has drained', async () => {
    const { response, close } = await connection();
    const channel = new SseChannel(() => undefined);
    void channel.writeTo(response);
    expect(channel.backpressure.isFull()).toBe(false);
    Object.defineProperty(response, 'writableNeedDrain', { value: true, configurable: true });
    expect(channel.backpressure.isFull()).toBe(true);
    const drained = jest.fn();
    channel.backpressure.onceDrained(drained);
    response.emit('drain');
    expect(drained).toHaveBeenCalledTimes(1);
    channel.end();
    close();
  });
});

describe('SseChannel pings', () => {
  afterEach(() => jest.useRealTimers());

  it('pings again after each silence that follows a ping', async () => {
    jest.useFakeTimers();
    const channel = new SseChannel(() => undefined, 1_000);
    jest.advanceTimersByTime(1_000);
    expect(await channel.next()).toEqual({ done: false, value: ': ping\n\n' });
    jest.advanceTimersByTime(999);
    const pending = channel.next();
    jest.advanceTimersByTime(1);
    expect(await pending).toEqual({ done: false, value: ': ping\n\n' });
    channel.end();
  });
});
