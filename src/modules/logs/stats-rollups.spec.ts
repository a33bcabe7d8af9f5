import { planPieces } from './stats-rollups';

const at = (text: string) => new Date(`2026-03-${text}Z`);
const plan = (from: string, to: string, interval: 'hour' | 'day') =>
  planPieces(at(from), at(to), interval).map((piece) => [
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
});
