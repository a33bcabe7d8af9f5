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

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateKey('endpoint', 'live')));
    expect(keys.size).toBe(2000);
  });

  it('rejects malformed keys', () => {
    for (const raw of ['', 'epa_short', 'ep_prod_' + 'a'.repeat(40), 'xyz_' + 'a'.repeat(40), 'epa_' + 'a'.repeat(39) + '!']) {
      expect(isWellFormedKey(raw)).toBe(false);
    }
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
