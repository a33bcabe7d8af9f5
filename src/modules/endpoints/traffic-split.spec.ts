import { createHash, randomUUID } from 'node:crypto';
import {
  assignVariant,
  bucketOf,
  normalizeSplit,
  splitLists,
  splitProblems,
  STICKY_BY_PATTERN,
  stickyValueOf,
  type TrafficSplit,
  trafficShareOf,
  variantAt,
} from './traffic-split';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';
const ENDPOINT = '44444444-4444-4444-8444-444444444444';

const split = (weights: number[], stickyBy = 'key'): TrafficSplit => ({
  variants: weights.map((weight, index) => ({ promptId: [A, B, C][index], weight })),
  stickyBy,
});

describe('traffic split rules', () => {
  it('accepts weights summing to 100 and refuses other sums or a prompt listed twice, naming the field', () => {
    expect(splitProblems(split([90, 10]))).toEqual([]);
    expect(splitProblems(split([90, 20]))).toEqual([
      { field: 'trafficSplit.variants', message: 'trafficSplit.variants weights must sum to 100 (they sum to 110)' },
    ]);
    const twice: TrafficSplit = {
      variants: [
        { promptId: A, weight: 50 },
        { promptId: A.toUpperCase(), weight: 50 },
      ],
      stickyBy: 'none',
    };
    expect(splitProblems(twice).map((p) => p.field)).toEqual(['trafficSplit.variants.1.promptId']);
  });

  it('accepts key, none and header:<token> as stickyBy, nothing else', () => {
    for (const valid of ['key', 'none', 'header:x-user-id', 'header:X-Session'])
      expect(STICKY_BY_PATTERN.test(valid)).toBe(true);
    for (const invalid of ['', 'Key', 'header:', 'header:a b', 'header:a:b', `header:${'a'.repeat(101)}`, 'cookie:x'])
      expect(STICKY_BY_PATTERN.test(invalid)).toBe(false);
  });

  it('stores header names in lower case', () => {
    expect(normalizeSplit(split([50, 50], 'header:X-User')).stickyBy).toBe('header:x-user');
    expect(normalizeSplit(split([50, 50], 'key')).stickyBy).toBe('key');
  });

  it('sticks by the key id, by the header value (blank or missing: none), or by nothing', () => {
    const context = { keyId: 'key-1', header: (name: string) => ({ 'x-user': ' u1 ', 'x-blank': '  ' })[name] };
    expect(stickyValueOf(split([50, 50], 'key'), context)).toBe('key-1');
    expect(stickyValueOf(split([50, 50], 'header:x-user'), context)).toBe('u1');
    expect(stickyValueOf(split([50, 50], 'header:x-blank'), context)).toBeNull();
    expect(stickyValueOf(split([50, 50], 'header:x-missing'), context)).toBeNull();
    expect(stickyValueOf(split([50, 50], 'none'), context)).toBeNull();
  });

  it('maps buckets 0..99 onto the cumulative weights', () => {
    const s = split([90, 10]);
    expect(variantAt(s, 0).promptId).toBe(A);
    expect(variantAt(s, 89).promptId).toBe(A);
    expect(variantAt(s, 90).promptId).toBe(B);
    expect(variantAt(s, 99).promptId).toBe(B);
    const three = split([20, 30, 50]);
    expect([19, 20, 49, 50, 99].map((b) => variantAt(three, b).promptId)).toEqual([A, B, B, C, C]);
  });

  it('hashes a sticky value with the endpoint id into 0..99, the same every time', () => {
    const bucket = bucketOf(ENDPOINT, 'user-42');
    expect(bucket).toBeGreaterThanOrEqual(0);
    expect(bucket).toBeLessThan(100);
    expect(bucketOf(ENDPOINT, 'user-42')).toBe(bucket);
    for (let i = 0; i < 100; i++) {
      const value = `user-${i}`;
      expect(assignVariant(split([50, 50]), ENDPOINT, value)).toBe(assignVariant(split([50, 50]), ENDPOINT, value));
    }
  });

  it('is the documented bucket: the first four bytes of SHA-256("<endpoint id>\\n<value>") modulo 100', () => {
    for (const value of ['user-42', 'alice', 'ключ', 'a\nb']) {
      const digest = createHash('sha256').update(`${ENDPOINT}\n${value}`, 'utf8').digest();
      expect(bucketOf(ENDPOINT, value)).toBe(digest.readUInt32BE(0) % 100);
    }
  });

  it('spreads sticky values by the weights too (10,000 distinct values within 2 points)', () => {
    const s = split([90, 10]);
    let a = 0;
    for (let i = 0; i < 10_000; i++) if (assignVariant(s, ENDPOINT, randomUUID()) === A) a++;
    expect(Math.abs(a / 100 - 90)).toBeLessThanOrEqual(2);
  });

  it.each([[[90, 10]], [[50, 50]], [[20, 30, 50]]])(
    'meets each weight within 2 points over 10,000 random assignments: %j',
    (weights) => {
      const s = split(weights);
      const counts = new Map<string, number>();
      for (let i = 0; i < 10_000; i++) {
        const promptId = assignVariant(s, ENDPOINT, null);
        counts.set(promptId, (counts.get(promptId) ?? 0) + 1);
      }
      s.variants.forEach((variant) => {
        expect(Math.abs((counts.get(variant.promptId) ?? 0) / 100 - variant.weight)).toBeLessThanOrEqual(2);
      });
    },
  );

  it('tells whether a split lists a prompt', () => {
    expect(splitLists(split([90, 10]), B)).toBe(true);
    expect(splitLists(split([90, 10]), C)).toBe(false);
    expect(splitLists(null, A)).toBe(false);
  });

  it('gives a split prompt its weight, the default 100 without a split, and every other prompt 0', () => {
    expect(trafficShareOf(split([90, 10]), A, B)).toBe(10);
    expect(trafficShareOf(split([90, 10]), A, A)).toBe(90);
    expect(trafficShareOf(split([90, 10]), C, C)).toBe(0);
    expect(trafficShareOf(null, A, A.toUpperCase())).toBe(100);
    expect(trafficShareOf(null, A, B)).toBe(0);
    expect(trafficShareOf(null, null, A)).toBe(0);
  });
});
