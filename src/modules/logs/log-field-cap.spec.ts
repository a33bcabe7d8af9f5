import fc from 'fast-check';
import { capLogMessages, capLogText } from './log-field-cap';

const MARKER = /…\[truncated (\d+) bytes\]$/;
const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

describe('capLogText', () => {
  it('keeps a text of at most the limit as it is', () => {
    expect(capLogText('', 1024)).toEqual({ text: '', truncated: false });
    expect(capLogText('a'.repeat(1024), 1024)).toEqual({ text: 'a'.repeat(1024), truncated: false });
    // 512 characters of two bytes each: exactly the limit, although 3 bytes a character would exceed it.
    expect(capLogText('é'.repeat(512), 1024)).toEqual({ text: 'é'.repeat(512), truncated: false });
  });

  it('cuts a longer text to its first bytes and says how many bytes were cut', () => {
    expect(capLogText('a'.repeat(1030), 1024)).toEqual({
      text: `${'a'.repeat(1024)}…[truncated 6 bytes]`,
      truncated: true,
    });
    expect(capLogText('abcdef', 4)).toEqual({ text: 'abcd…[truncated 2 bytes]', truncated: true });
  });

  it('never splits a character: the cut backs off to the character that straddles the limit', () => {
    // "€" is 3 bytes: 'ab' + '€' is 5 bytes; a limit of 4 falls inside the "€".
    expect(capLogText('ab€c', 4)).toEqual({ text: 'ab…[truncated 4 bytes]', truncated: true });
    // An emoji is 4 bytes (two UTF-16 code units): neither half is kept.
    expect(capLogText('a😀b', 3)).toEqual({ text: 'a…[truncated 5 bytes]', truncated: true });
    expect(capLogText('a😀b', 5)).toEqual({ text: 'a😀…[truncated 1 bytes]', truncated: true });
    expect(capLogText('😀😀', 2)).toEqual({ text: '…[truncated 8 bytes]', truncated: true });
  });

  it('counts every byte cut from a text far longer than the limit, whatever character ends the part it reads', () => {
    // The limit's worth of characters ends inside an emoji: its half is not kept.
    expect(capLogText(`aaaa😀${'b'.repeat(10)}`, 4)).toEqual({ text: 'aaaa…[truncated 14 bytes]', truncated: true });
    expect(capLogText(`aaa😀${'b'.repeat(10)}`, 4)).toEqual({ text: 'aaa…[truncated 14 bytes]', truncated: true });
    const long = 'é€😀x'.repeat(200_000);
    const { text, truncated } = capLogText(long, 65_536);
    const kept = text.slice(0, MARKER.exec(text)!.index);
    expect(truncated).toBe(true);
    expect(long.startsWith(kept)).toBe(true);
    expect(65_536 - bytesOf(kept)).toBeLessThan(4);
    expect(bytesOf(kept) + Number(MARKER.exec(text)![1])).toBe(bytesOf(long));
  });

  it('keeps a prefix of at most the limit, on a character boundary, that with the cut bytes makes the whole text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.integer({ min: 1, max: 600 }), (text, limit) => {
        const whole = Buffer.from(text, 'utf8');
        const { text: capped, truncated } = capLogText(text, limit);
        if (whole.length <= limit) {
          expect(truncated).toBe(false);
          expect(capped).toBe(text);
          return;
        }
        expect(truncated).toBe(true);
        const marker = MARKER.exec(capped)!;
        expect(marker).not.toBeNull();
        const kept = capped.slice(0, marker.index);
        expect(bytesOf(kept)).toBeLessThanOrEqual(limit);
        expect(limit - bytesOf(kept)).toBeLessThan(4); // at most one character short of the limit
        expect(bytesOf(kept) + Number(marker[1])).toBe(whole.length);
        expect(whole.subarray(0, bytesOf(kept)).equals(Buffer.from(kept, 'utf8'))).toBe(true);
      }),
      { seed: 20261123, numRuns: 500 },
    );
  });
});

describe('capLogMessages', () => {
  const messages = [
    { role: 'system', content: 'abcd' },
    { role: 'user', content: 'éfgh' },
    { role: 'assistant', content: 'ijkl' },
  ];

  it('keeps messages whose texts fit together as they are', () => {
    expect(capLogMessages(messages, 13)).toEqual({ messages, truncated: false });
  });

  it('cuts the text that crosses the limit and empties the ones after it, keeping every role', () => {
    expect(capLogMessages(messages, 7)).toEqual({
      messages: [
        { role: 'system', content: 'abcd' },
        { role: 'user', content: 'éf…[truncated 2 bytes]' },
        { role: 'assistant', content: '…[truncated 4 bytes]' },
      ],
      truncated: true,
    });
  });
});
