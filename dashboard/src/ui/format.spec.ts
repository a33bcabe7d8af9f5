import { formatDate, formatMoment } from './format';

describe('formatMoment', () => {
  const now = new Date(2026, 10, 26, 15, 0);

  it('gives the time alone for a moment of the same day, in the user’s locale', () => {
    const moment = new Date(2026, 10, 26, 10, 42).toISOString();
    expect(formatMoment(moment, now)).toBe(new Date(moment).toLocaleTimeString(undefined, { timeStyle: 'short' }));
    expect(formatMoment(moment, now)).not.toBe(formatDate(moment));
  });

  it('gives the date too for a moment of another day, as every date of the pages', () => {
    const yesterday = new Date(2026, 10, 25, 23, 59).toISOString();
    expect(formatMoment(yesterday, now)).toBe(formatDate(yesterday));
    const lastYear = new Date(2025, 10, 26, 10, 42).toISOString();
    expect(formatMoment(lastYear, now)).toBe(formatDate(lastYear));
  });

  it('gives back what it cannot read', () => {
    expect(formatMoment('not a date', now)).toBe('not a date');
  });
});
