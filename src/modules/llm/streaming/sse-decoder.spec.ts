import { SseDecoder } from './sse-decoder';

/** The events of `text` pushed in chunks of `size` bytes (all of it at once without one). */
function eventsOf(text: string | Buffer, size?: number): [string, string][] {
  const events: [string, string][] = [];
  const decoder = new SseDecoder((name, data) => events.push([name, data]));
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const step = size ?? bytes.length;
  for (let offset = 0; offset < bytes.length; offset += step) decoder.push(bytes.subarray(offset, offset + step));
  decoder.end();
  return events;
}

describe('SseDecoder', () => {
  it('names events by `event:` (message when unnamed), joins data lines with LF and resets the name per event', () => {
    const text = 'event: a\ndata: one\ndata: two\n\ndata: three\n\n';
    expect(eventsOf(text)).toEqual([
      ['a', 'one\ntwo'],
      ['message', 'three'],
    ]);
  });

  it('ends lines with LF, CRLF or CR alone, a CRLF cut between two chunks included', () => {
    const text = 'data: lf\n\ndata: crlf\r\n\r\ndata: cr\r\rdata: mixed\r\n\n';
    const expected = [
      ['message', 'lf'],
      ['message', 'crlf'],
      ['message', 'cr'],
      ['message', 'mixed'],
    ];
    for (const size of [undefined, 1, 2, 3, 5, 7]) expect(eventsOf(text, size)).toEqual(expected);
  });

  it('skips comments, other fields and events without data; a field without a colon has an empty value', () => {
    const text =
      ': ping\n\nid: 7\nretry: 100\n\nevent: empty\n\ndata\n\ndata:tight\n\nevent: x\nunknown: y\ndata:  two spaces\n\n';
    expect(eventsOf(text)).toEqual([
      ['message', ''],
      ['message', 'tight'],
      ['x', ' two spaces'],
    ]);
  });

  it('decodes a multi-byte character cut anywhere, and drops a BOM at the start only', () => {
    const text = '\uFEFFdata: café 😀 — ok\n\ndata: \uFEFFkept\n\n';
    for (const size of [undefined, 1, 2, 3, 4]) {
      expect(eventsOf(text, size)).toEqual([
        ['message', 'café 😀 — ok'],
        ['message', '\uFEFFkept'],
      ]);
    }
  });

  it('does not dispatch an event the body ended before its blank line', () => {
    expect(eventsOf('data: whole\n\ndata: cut')).toEqual([['message', 'whole']]);
    expect(eventsOf('data: cut\n')).toEqual([]);
  });
});
