import { SseChannel, sseEvent } from './sse-channel';

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
