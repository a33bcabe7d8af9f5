import { periodWindow, secondsToPeriodEnd } from './budget-period';

describe('periodWindow', () => {
  it('gives the UTC day around an instant', () => {
    const window = periodWindow('day', new Date('2026-03-31T23:59:59.999Z'));
    expect(window.start.toISOString()).toBe('2026-03-31T00:00:00.000Z');
    expect(window.end.toISOString()).toBe('2026-04-01T00:00:00.000Z');
  });

  it('gives the UTC month around an instant, across a year end', () => {
    const window = periodWindow('month', new Date('2026-12-15T10:00:00Z'));
    expect(window.start.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(window.end.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('starts a new period at midnight UTC exactly', () => {
    expect(periodWindow('day', new Date('2026-02-28T00:00:00Z')).start.toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(periodWindow('month', new Date('2028-02-29T12:00:00Z')).end.toISOString()).toBe('2028-03-01T00:00:00.000Z');
  });
});

describe('secondsToPeriodEnd', () => {
  it('rounds up, and is never below one second', () => {
    const window = periodWindow('day', new Date('2026-05-01T12:00:00Z'));
    expect(secondsToPeriodEnd(window, new Date('2026-05-01T23:59:58.500Z'))).toBe(2);
    expect(secondsToPeriodEnd(window, new Date('2026-05-01T23:59:59.999Z'))).toBe(1);
    expect(secondsToPeriodEnd(window, new Date('2026-05-01T00:00:00Z'))).toBe(86_400);
  });
});
