import { createHash } from 'node:crypto';
import { generateKey, hashesEqual, hashKey, isWellFormedKey, keyPrefix, last4, randomBase62 } from './key-format';

describe('key format', () => {
  it.each([
    ['endpoint', 'live', /^ep_live_[A-Za-z0-9]{32,}$/],
    ['endpoint', 'test', /^ep_test_[A-Za-z0-9]{32,}$/],
    ['admin', null, /^epa_[A-Za-z0-9]{32,}$/],
  ] as const)('a %s key (%s) has its prefix and at least 32 base62 characters', (type, environment, pattern) => {
    const key = generateKey(type, environment);
    expect(key).toMatch(pattern);
    expect(key.length - keyPrefix(type, environment).length).toBeGreaterThanOrEqual(32);
    expect(isWellFormedKey(key)).toBe(true);
  });

  it('draws from the whole base62 alphabet and nothing else', () => {
    const sample = randomBase62(20_000);
    expect(sample).toHaveLength(20_000);
    expect(sample).toMatch(/^[0-9A-Za-z]+$/);
    expect(new Set(sample).size).toBe(62);
  });

  it('is roughly uniform over the alphabet (no modulo bias)', () => {
    const counts = new Map<string, number>();
    for (const char of randomBase62(62_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    // 1000 expected per character; a biased generator puts the first 8 characters near 1250.
    for (const count of counts.values()) expect(count).toBeGreaterThan(800);
    for (const count of counts.values()) expect(count).toBeLessThan(1200);
  });

  it('gives exactly the length asked for, down to one character', () => {
    expect(randomBase62(0)).toBe('');
    expect(randomBase62(1)).toMatch(/^[0-9A-Za-z]$/);
    expect(randomBase62(7)).toMatch(/^[0-9A-Za-z]{7}$/);
  });

  it('prefixes an endpoint key without an environment as live', () => {
    expect(keyPrefix('endpoint', null)).toBe('ep_live_');
    expect(keyPrefix('endpoint', 'test')).toBe('ep_test_');
    expect(keyPrefix('admin', 'test')).toBe('epa_');
    expect(generateKey('endpoint', null)).toMatch(/^ep_live_[0-9A-Za-z]{40}$/);
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateKey('endpoint', 'live')));
    expect(keys.size).toBe(2000);
  });

  it('rejects malformed keys', () => {
    for (const raw of [
      '',
      'epa_short',
      'ep_prod_' + 'a'.repeat(40),
      'xyz_' + 'a'.repeat(40),
      'epa_' + 'a'.repeat(39) + '!',
    ]) {
      expect(isWellFormedKey(raw)).toBe(false);
    }
  });

  it('accepts any base62 characters from 32 on after a known prefix', () => {
    for (const raw of [
      'ep_live_' + 'a'.repeat(32),
      'ep_test_' + 'Z'.repeat(32),
      'epa_' + '0'.repeat(32),
      'epa_' + '09AZaz'.repeat(20),
      'ep_live_' + 'A1b2'.repeat(8),
    ]) {
      expect(isWellFormedKey(raw)).toBe(true);
    }
  });

  it.each([
    ['31 characters after the prefix', 'ep_live_' + 'a'.repeat(31)],
    ['text before the prefix', ' ep_live_' + 'a'.repeat(40)],
    ['a prefix inside the key', 'xepa_' + 'a'.repeat(40)],
    ['text after the key', 'ep_test_' + 'a'.repeat(40) + ' '],
    ['a line after the key', 'epa_' + 'a'.repeat(40) + '\nx'],
    ['a non-base62 character inside', 'epa_' + 'a'.repeat(20) + '-' + 'a'.repeat(20)],
    ['an underscore inside', 'ep_live_' + 'a'.repeat(20) + '_' + 'a'.repeat(20)],
    ['a prefix without its underscore', 'epa' + 'a'.repeat(40)],
    ['a prefix alone', 'ep_live_'],
  ])('rejects a key with %s', (_what, raw) => {
    expect(isWellFormedKey(raw)).toBe(false);
  });

  it('hashes with SHA-256 hex and compares hashes in constant time', () => {
    const key = generateKey('admin', null);
    const expected = createHash('sha256').update(key).digest('hex');
    expect(hashKey(key)).toBe(expected);
    expect(hashKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashesEqual(hashKey(key), expected)).toBe(true);
    expect(hashesEqual(hashKey(key), hashKey(key + 'x'))).toBe(false);
    expect(hashesEqual(hashKey(key), 'abcd')).toBe(false);
  });

  it('keeps the last four characters for display', () => {
    expect(last4('epa_abcdefWXYZ')).toBe('WXYZ');
  });
});
