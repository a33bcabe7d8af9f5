import { compilePattern, matches, type CheckMatcher } from './check-pattern';

function matcherOf(pattern: string): CheckMatcher {
  const compiled = compilePattern(pattern);
  if (!compiled.ok) throw new Error(`expected ${pattern} to compile: ${compiled.message}`);
  return compiled.matcher;
}

describe('compilePattern', () => {
  it('compiles RE2 patterns, inline flags and named groups included', () => {
    for (const pattern of ['^\\d{3}-\\d{4}$', '(?i)spam', '(?<word>\\w+)', '\\p{L}+', '"category":\\s*"(spam|ham)"']) {
      expect(compilePattern(pattern).ok).toBe(true);
    }
  });

  it('refuses what does not compile with a short message, without the engine prefix', () => {
    expect(compilePattern('[')).toEqual({ ok: false, message: 'missing closing ]: `[`' });
    expect(compilePattern('a**')).toEqual({ ok: false, message: 'invalid nested repetition operator: `**`' });
  });

  it('refuses lookaround and backreferences, which RE2 does not have', () => {
    expect(compilePattern('(?=a)')).toMatchObject({ ok: false, message: expect.stringContaining('(?=') });
    expect(compilePattern('(?<!a)b')).toMatchObject({ ok: false });
    expect(compilePattern('(a)\\1')).toMatchObject({ ok: false, message: expect.stringContaining('\\1') });
  });

  it('bounds the message of a long invalid pattern', () => {
    const compiled = compilePattern(`(${'a'.repeat(450)}`);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.message.length).toBeLessThanOrEqual(200);
  });
});

describe('matches', () => {
  it('matches anywhere unless anchored', () => {
    expect(matches(matcherOf('ham'), '{"category":"ham"}')).toBe(true);
    expect(matches(matcherOf('^ham'), '{"category":"ham"}')).toBe(false);
    expect(matches(matcherOf('(?i)HAM'), '"ham"')).toBe(true);
    expect(matches(matcherOf('^É'), 'Été')).toBe(true);
  });

  it('takes time linear in the text on patterns that backtracking engines take exponential time on', () => {
    // A backtracking engine needs about 2^30 steps here; RE2 answers at once (the bound is loose for loaded machines).
    const started = Date.now();
    expect(matches(matcherOf('(a+)+$'), `${'a'.repeat(30)}b`)).toBe(false);
    expect(matches(matcherOf('(x+x+)+y'), 'x'.repeat(100_000))).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
