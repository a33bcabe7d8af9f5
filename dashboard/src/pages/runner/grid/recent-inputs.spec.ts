import { canonicalJson, type LoggedCall, recentInputsOf, usableSummary } from './recent-inputs';

const call = (id: string, inputs: unknown, overrides: Partial<LoggedCall> = {}): LoggedCall => ({
  id,
  inputs,
  truncatedFields: [],
  errorCode: null,
  ...overrides,
});

describe('the inputs of recent calls', () => {
  it('takes the newest N distinct inputs, in the order of the calls', () => {
    const calls = [
      call('l1', { text: 'a' }),
      call('l2', { text: 'b' }),
      call('l3', { text: 'a' }),
      call('l4', { text: 'c' }),
      call('l5', { text: 'd' }),
    ];
    expect(recentInputsOf(calls, 3)).toEqual([
      { inputs: { text: 'a' }, logId: 'l1' },
      { inputs: { text: 'b' }, logId: 'l2' },
      { inputs: { text: 'c' }, logId: 'l4' },
    ]);
    expect(recentInputsOf(calls, 10)).toHaveLength(4);
  });

  it('treats the same inputs written in another key order as the same', () => {
    const calls = [call('l1', { a: 1, b: { x: 1, y: 2 } }), call('l2', { b: { y: 2, x: 1 }, a: 1 })];
    expect(recentInputsOf(calls, 5).map((one) => one.logId)).toEqual(['l1']);
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
  });

  it('leaves out inputs already in the grid', () => {
    const calls = [call('l1', { text: 'a' }), call('l2', { text: 'b' })];
    expect(recentInputsOf(calls, 5, [{ text: 'a' }])).toEqual([{ inputs: { text: 'b' }, logId: 'l2' }]);
  });

  it('skips calls whose inputs were cut, were refused, or are not an object', () => {
    const calls = [
      call('l1', '{"text":"a…[truncated 900 bytes]', { truncatedFields: ['inputs'] }),
      call('l2', { text: 'b' }, { errorCode: 'validation_error' }),
      call('l3', { text: 'c' }, { errorCode: 'payload_too_large' }),
      call('l4', ['not', 'an', 'object']),
      call('l5', null),
      call('l6', { text: 'f' }, { errorCode: 'upstream_error', truncatedFields: ['rawResponse'] }),
    ];
    expect(recentInputsOf(calls, 5)).toEqual([{ inputs: { text: 'f' }, logId: 'l6' }]);
    expect(usableSummary({ id: 'l1', truncatedFields: ['inputs'], errorCode: null })).toBe(false);
    expect(usableSummary({ id: 'l2', truncatedFields: [], errorCode: 'validation_error' })).toBe(false);
    expect(usableSummary({ id: 'l6', truncatedFields: ['parsedOutput'], errorCode: 'timeout' })).toBe(true);
  });
});
