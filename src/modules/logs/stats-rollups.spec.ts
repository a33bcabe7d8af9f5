import { countPieces, planPieces, topTagValues } from './stats-rollups';

const at = (text: string) => new Date(`2026-03-${text}Z`);
const plan = (from: string, to: string, interval: 'hour' | 'day', rowsFrom?: string) =>
  planPieces(at(from), at(to), interval, rowsFrom === undefined ? null : at(rowsFrom)).map((piece) => [
    piece.source,
    piece.from.toISOString().slice(8, 16),
    piece.to.toISOString().slice(8, 16),
  ]);

describe('planPieces', () => {
  it('reads partial edge hours from the logs and whole hours from the hourly rollups', () => {
    expect(plan('01T10:20', '01T14:05', 'hour')).toEqual([
      ['logs', '01T10:20', '01T11:00'],
      ['hour', '01T11:00', '01T14:00'],
      ['logs', '01T14:00', '01T14:05'],
    ]);
  });

  it('reads a period within one hour (or without a whole hour) from the logs alone', () => {
    expect(plan('01T10:20', '01T10:40', 'hour')).toEqual([['logs', '01T10:20', '01T10:40']]);
    expect(plan('01T10:20', '01T11:40', 'day')).toEqual([['logs', '01T10:20', '01T11:40']]);
  });

  it('reads whole UTC days from the daily rollups for daily buckets, and the hours around them hourly', () => {
    expect(plan('01T10:20', '04T08:30', 'day')).toEqual([
      ['logs', '01T10:20', '01T11:00'],
      ['hour', '01T11:00', '02T00:00'],
      ['day', '02T00:00', '04T00:00'],
      ['hour', '04T00:00', '04T08:00'],
      ['logs', '04T08:00', '04T08:30'],
    ]);
    expect(plan('01T00:00', '03T00:00', 'day')).toEqual([['day', '01T00:00', '03T00:00']]);
    expect(plan('01T00:00', '03T00:00', 'hour')).toEqual([['hour', '01T00:00', '03T00:00']]);
  });

  it('reads from the logs everything from the hour of the earliest row whose sums may be missing', () => {
    expect(plan('01T10:20', '04T08:30', 'day', '03T05:59')).toEqual([
      ['logs', '01T10:20', '01T11:00'],
      ['hour', '01T11:00', '02T00:00'],
      ['day', '02T00:00', '03T00:00'],
      ['hour', '03T00:00', '03T05:00'],
      ['logs', '03T05:00', '04T08:30'],
    ]);
    // In the period's last partial hour, or after it: nothing changes.
    expect(plan('01T10:20', '01T14:05', 'hour', '01T14:01')).toEqual(plan('01T10:20', '01T14:05', 'hour'));
    expect(plan('01T10:20', '01T14:05', 'hour', '02T00:00')).toEqual(plan('01T10:20', '01T14:05', 'hour'));
    // Before the period: all of it.
    expect(plan('01T10:20', '01T14:05', 'hour', '01T10:30')).toEqual([['logs', '01T10:20', '01T14:05']]);
    expect(plan('01T10:20', '01T14:05', 'hour', '01T09:00')).toEqual([['logs', '01T10:20', '01T14:05']]);
  });
});

describe('countPieces', () => {
  const show = (pieces: ReturnType<typeof planPieces>) =>
    pieces.map((piece) => [piece.source, piece.from.toISOString().slice(0, 16), piece.to.toISOString().slice(0, 16)]);
  const count = (from: string | undefined, to: string | undefined, retained: string, now: string) => {
    const { recent, older } = countPieces(
      from === undefined ? undefined : at(from),
      to === undefined ? undefined : at(to),
      at(retained),
      at(now),
    );
    return { recent: show(recent), older: show(older) };
  };

  it('reads from the start of yesterday on first, then the older part, rows before the retention cutoff from the logs', () => {
    expect(count(undefined, undefined, '01T10:00', '20T15:30')).toEqual({
      recent: [['day', '2026-03-19T00:00', '9999-01-01T00:00']],
      older: [
        ['logs', '1970-01-01T00:00', '2026-03-01T10:00'],
        ['hour', '2026-03-01T10:00', '2026-03-02T00:00'],
        ['day', '2026-03-02T00:00', '2026-03-19T00:00'],
      ],
    });
  });

  it('reads the partial hours at the edges of a given period from the logs', () => {
    expect(count('10T10:20', '19T08:30', '01T10:00', '20T15:30')).toEqual({
      recent: [
        ['hour', '2026-03-19T00:00', '2026-03-19T08:00'],
        ['logs', '2026-03-19T08:00', '2026-03-19T08:30'],
      ],
      older: [
        ['logs', '2026-03-10T10:20', '2026-03-10T11:00'],
        ['hour', '2026-03-10T11:00', '2026-03-11T00:00'],
        ['day', '2026-03-11T00:00', '2026-03-19T00:00'],
      ],
    });
    expect(count('20T10:20', '20T10:40', '01T10:00', '20T15:30')).toEqual({
      recent: [['logs', '2026-03-20T10:20', '2026-03-20T10:40']],
      older: [],
    });
  });

  it('reads a period that ends before the retention cutoff from the logs alone', () => {
    expect(count('01T02:20', '01T09:00', '01T10:00', '20T15:30')).toEqual({
      recent: [],
      older: [['logs', '2026-03-01T02:20', '2026-03-01T09:00']],
    });
  });
});

describe('topTagValues', () => {
  it('names the values with the most executions, ties in code-point order, at most 100', () => {
    const counts = Array.from({ length: 150 }, (_, i) => ({ tagValue: `v${String(i).padStart(3, '0')}`, calls: 1 }));
    counts.push({ tagValue: 'b', calls: 5 }, { tagValue: 'B', calls: 5 }, { tagValue: 'a', calls: 7 });
    const top = topTagValues(counts);
    expect(top).toHaveLength(100);
    expect(top.slice(0, 4)).toEqual(['a', 'B', 'b', 'v000']);
    expect(top.at(-1)).toBe('v096');
  });
});
