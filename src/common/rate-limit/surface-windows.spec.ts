import { surfaceWindows } from './surface-windows';

const principal = { keyId: 'k1', rateLimits: { perMinute: 60, perHour: 1000, perDay: 10000 } };
const endpoint = { id: 'e1', rateLimitPerMinute: 2, rateLimitPerHour: null, rateLimitPerDay: 50 };
const PER_MINUTE = { admin: 600, score: 300 };

describe('surfaceWindows', () => {
  it('gives a score one per-key minute window of the score limit, apart from the execution windows', () => {
    expect(surfaceWindows(PER_MINUTE, ['score'], principal)).toEqual([
      { name: 'score-minute', key: 'score-minute:{k1}', limit: 300, ttlMs: 60_000 },
    ]);
  });

  it('gives an admin request one per-key minute window of the admin limit', () => {
    expect(surfaceWindows(PER_MINUTE, ['admin'], principal)).toEqual([
      { name: 'admin-minute', key: 'admin-minute:{k1}', limit: 600, ttlMs: 60_000 },
    ]);
  });

  it("gives an execution the key's three windows, and the endpoint's own ones that are set, per key per endpoint", () => {
    expect(surfaceWindows(PER_MINUTE, ['execution'], principal, endpoint)).toEqual([
      { name: 'minute', key: 'minute:{k1}', limit: 60, ttlMs: 60_000 },
      { name: 'hour', key: 'hour:{k1}', limit: 1000, ttlMs: 3_600_000 },
      { name: 'day', key: 'day:{k1}', limit: 10000, ttlMs: 86_400_000 },
      { name: 'endpoint-minute', key: 'endpoint-minute:{k1}:e1', limit: 2, ttlMs: 60_000 },
      { name: 'endpoint-day', key: 'endpoint-day:{k1}:e1', limit: 50, ttlMs: 86_400_000 },
    ]);
    expect(surfaceWindows(PER_MINUTE, ['execution'], principal).map((w) => w.name)).toEqual(['minute', 'hour', 'day']);
  });

  it('counts a call on both surfaces in the windows of each, with the same keys as either alone', () => {
    const both = surfaceWindows(PER_MINUTE, ['admin', 'execution'], principal, endpoint);
    expect(both).toEqual([
      ...surfaceWindows(PER_MINUTE, ['admin'], principal),
      ...surfaceWindows(PER_MINUTE, ['execution'], principal, endpoint),
    ]);
  });
});
