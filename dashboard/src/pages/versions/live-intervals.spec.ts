import type { PromptEvent } from './event-text';
import { isCreationOf, type LiveInterval, liveIntervals, shareText } from './live-intervals';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';
const DEPLOYER = { keyId: '44444444-4444-4444-8444-444444444444', keyName: 'deployer' };
const OPERATOR = { keyId: '55555555-5555-4555-8555-555555555555', keyName: 'operator' };

/** An event at 10:mm on one day (UTC). */
function at(minute: number, patch: Partial<PromptEvent> & Pick<PromptEvent, 'type'>): PromptEvent {
  return {
    promptId: A,
    versionNumber: 1,
    ...DEPLOYER,
    createdAt: new Date(Date.UTC(2026, 10, 26, 10, minute)).toISOString(),
    details: {},
    ...patch,
  };
}
const time = (minute: number) => new Date(Date.UTC(2026, 10, 26, 10, minute)).toISOString();

/** The events oldest first, as a reader writes them; the endpoint's list gives them newest first. */
const intervalsOf = (promptId: string, oldestFirst: PromptEvent[]) =>
  liveIntervals(promptId, [...oldestFirst].reverse());

/** The intervals without their starting event, and the key that started each. */
const brief = (intervals: LiveInterval[]) =>
  intervals.map(({ startedBy, ...interval }) => ({ ...interval, by: startedBy.keyName, event: startedBy.type }));

const split = (...variants: [string, number][]) => ({
  variants: variants.map(([promptId, weight]) => ({ promptId, weight })),
  stickyBy: 'key',
});

describe('when a prompt was Live, from its endpoint history', () => {
  it('promoted then demoted: one closed interval, with the version, the share and the key that promoted it', () => {
    const intervals = intervalsOf(A, [
      at(0, { type: 'created', details: { name: 'Summary' } }),
      at(5, { type: 'promoted', details: { gate: null, trafficShare: 0 } }),
      at(42, { type: 'demoted', details: { wasDefault: false }, ...OPERATOR }),
    ]);
    expect(brief(intervals)).toEqual([
      { versionNumber: 1, share: 0, from: time(5), to: time(42), by: 'deployer', event: 'promoted' },
    ]);
  });

  it('promoted and made the default, still Live: the newest interval is open, newest first', () => {
    const intervals = intervalsOf(A, [
      at(0, { type: 'created' }),
      at(1, { type: 'promoted', details: { gate: null, trafficShare: 0 } }),
      at(42, {
        type: 'default_set',
        details: { previousDefaultPromptId: null, trafficShare: 100, previousDefaultTrafficShare: null },
        ...OPERATOR,
      }),
    ]);
    expect(brief(intervals)).toEqual([
      { versionNumber: 1, share: 100, from: time(42), to: null, by: 'operator', event: 'default_set' },
      { versionNumber: 1, share: 0, from: time(1), to: time(42), by: 'deployer', event: 'promoted' },
    ]);
  });

  it('the default replaced by another prompt keeps serving only ?prompt= calls, until it is the default again', () => {
    const events = [
      at(0, { type: 'created' }),
      at(1, { type: 'promoted', details: { gate: null, trafficShare: 0 } }),
      at(2, { type: 'default_set', details: { previousDefaultPromptId: null, trafficShare: 100 } }),
      at(3, { type: 'created', promptId: B }),
      at(4, { type: 'promoted', promptId: B, details: { gate: null, trafficShare: 0 } }),
      at(10, {
        type: 'default_set',
        promptId: B,
        details: { previousDefaultPromptId: A, trafficShare: 100, previousDefaultTrafficShare: 0 },
        ...OPERATOR,
      }),
      at(20, {
        type: 'default_set',
        details: { previousDefaultPromptId: B, trafficShare: 100, previousDefaultTrafficShare: 0 },
      }),
    ];
    expect(brief(intervalsOf(A, events)).map(({ share, from, to, by }) => ({ share, from, to, by }))).toEqual([
      { share: 100, from: time(20), to: null, by: 'deployer' },
      { share: 0, from: time(10), to: time(20), by: 'operator' },
      { share: 100, from: time(2), to: time(10), by: 'deployer' },
      { share: 0, from: time(1), to: time(2), by: 'deployer' },
    ]);
    // The other prompt, from the same events: it answers all the traffic only while it is the default.
    expect(brief(intervalsOf(B, events)).map(({ share, from, to, by }) => ({ share, from, to, by }))).toEqual([
      { share: 0, from: time(20), to: null, by: 'deployer' },
      { share: 100, from: time(10), to: time(20), by: 'operator' },
      { share: 0, from: time(4), to: time(10), by: 'deployer' },
    ]);
  });

  it('follows its weight as the split changes, and the default’s 100 % once the split is removed', () => {
    const events = [
      at(0, { type: 'created' }),
      at(1, { type: 'promoted', details: { gate: null, trafficShare: 0 } }),
      at(2, { type: 'default_set', details: { previousDefaultPromptId: null, trafficShare: 100 } }),
      at(3, { type: 'created', promptId: B }),
      at(4, { type: 'promoted', promptId: B, details: { gate: null, trafficShare: 0 } }),
      at(10, {
        type: 'split_changed',
        promptId: null,
        versionNumber: null,
        details: { trafficSplit: split([A, 50], [B, 50]), previous: null, defaultPromptId: A },
        ...OPERATOR,
      }),
      // Only the sticky setting changes: the shares stay, and so does the interval.
      at(15, {
        type: 'split_changed',
        promptId: null,
        versionNumber: null,
        details: { trafficSplit: { ...split([A, 50], [B, 50]), stickyBy: 'none' }, defaultPromptId: A },
      }),
      at(20, {
        type: 'split_changed',
        promptId: null,
        versionNumber: null,
        details: { trafficSplit: split([A, 30], [B, 70]), previous: split([A, 50], [B, 50]), defaultPromptId: A },
      }),
      at(30, {
        type: 'split_changed',
        promptId: null,
        versionNumber: null,
        details: { trafficSplit: null, previous: split([A, 30], [B, 70]), defaultPromptId: A },
        ...OPERATOR,
      }),
    ];
    expect(brief(intervalsOf(A, events)).map(({ share, from, to, by }) => ({ share, from, to, by }))).toEqual([
      { share: 100, from: time(30), to: null, by: 'operator' },
      { share: 30, from: time(20), to: time(30), by: 'deployer' },
      { share: 50, from: time(10), to: time(20), by: 'operator' },
      { share: 100, from: time(2), to: time(10), by: 'deployer' },
      { share: 0, from: time(1), to: time(2), by: 'deployer' },
    ]);
    // The other prompt of the split, read from the same history: its weight, then only ?prompt= without a split.
    expect(brief(intervalsOf(B, events)).map(({ share, from, to }) => ({ share, from, to }))).toEqual([
      { share: 0, from: time(30), to: null },
      { share: 70, from: time(20), to: time(30) },
      { share: 50, from: time(10), to: time(20) },
      { share: 0, from: time(4), to: time(10) },
    ]);
  });

  it('a save of the Live prompt starts an interval of its new version, with the share the save records', () => {
    const intervals = intervalsOf(A, [
      at(0, { type: 'created' }),
      at(1, { type: 'saved', versionNumber: 2, details: { status: 'Draft', trafficShare: 0 } }),
      at(2, { type: 'promoted', versionNumber: 2, details: { gate: null, trafficShare: 0 } }),
      at(3, { type: 'default_set', versionNumber: 2, details: { previousDefaultPromptId: null, trafficShare: 100 } }),
      at(9, { type: 'saved', versionNumber: 3, details: { status: 'Live', trafficShare: 100 }, ...OPERATOR }),
    ]);
    expect(
      brief(intervals).map(({ versionNumber, share, from, to, by }) => [versionNumber, share, from, to, by]),
    ).toEqual([
      [3, 100, time(9), null, 'operator'],
      [2, 100, time(3), time(9), 'deployer'],
      [2, 0, time(2), time(3), 'deployer'],
    ]);
  });

  it('archiving ends the interval, and a prompt unarchived and promoted again starts a new one', () => {
    const intervals = intervalsOf(A, [
      at(0, { type: 'created' }),
      at(1, { type: 'promoted', details: { gate: null, trafficShare: 0 } }),
      at(5, { type: 'archived' }),
      at(6, { type: 'unarchived' }),
      at(7, { type: 'promoted', details: { gate: null, trafficShare: 0 }, ...OPERATOR }),
    ]);
    expect(brief(intervals).map(({ from, to, by }) => [from, to, by])).toEqual([
      [time(7), null, 'operator'],
      [time(1), time(5), 'deployer'],
    ]);
  });

  it('changes made on other prompts count only when they change its share; a forced gate changes nothing', () => {
    const intervals = intervalsOf(A, [
      at(0, { type: 'created' }),
      at(1, { type: 'promoted', details: { gate: { forced: true, runId: null }, trafficShare: 0 } }),
      at(1, { type: 'gate_forced', details: { reason: 'Hotfix', runId: null } }),
      at(2, { type: 'created', promptId: B }),
      at(3, { type: 'promoted', promptId: B, details: { gate: null, trafficShare: 0 } }),
      at(4, { type: 'default_set', promptId: B, details: { previousDefaultPromptId: null, trafficShare: 100 } }),
      at(5, { type: 'saved', promptId: B, versionNumber: 2, details: { status: 'Live', trafficShare: 100 } }),
      at(6, { type: 'created', promptId: C }),
      at(7, { type: 'demoted', promptId: B, details: { wasDefault: true } }),
    ]);
    expect(brief(intervals)).toEqual([
      { versionNumber: 1, share: 0, from: time(1), to: null, by: 'deployer', event: 'promoted' },
    ]);
  });

  it('a history loaded only from after the split was set still has each share, as each event records it', () => {
    const intervals = intervalsOf(A, [
      at(1, {
        type: 'default_set',
        versionNumber: 2,
        details: { previousDefaultPromptId: C, trafficShare: 30, previousDefaultTrafficShare: 0 },
      }),
      at(5, {
        type: 'default_set',
        promptId: B,
        details: { previousDefaultPromptId: A, trafficShare: 70, previousDefaultTrafficShare: 30 },
        ...OPERATOR,
      }),
      at(9, {
        type: 'split_changed',
        promptId: null,
        versionNumber: null,
        details: { trafficSplit: null, previous: split([A, 30], [B, 70]), defaultPromptId: B },
        ...OPERATOR,
      }),
    ]);
    expect(
      brief(intervals).map(({ versionNumber, share, from, to, by }) => [versionNumber, share, from, to, by]),
    ).toEqual([
      [2, 0, time(9), null, 'operator'],
      [2, 30, time(1), time(9), 'deployer'],
    ]);
  });

  it('reads events recorded before they stated every share from the split and default seen so far', () => {
    const intervals = intervalsOf(A, [
      at(0, { type: 'created' }),
      at(1, { type: 'promoted', details: { gate: null } }),
      at(2, { type: 'default_set', details: { previousDefaultPromptId: null, trafficShare: 100 } }),
      at(3, { type: 'promoted', promptId: B, details: { gate: null } }),
      at(4, {
        type: 'split_changed',
        promptId: null,
        versionNumber: null,
        details: { trafficSplit: split([A, 80], [B, 20]), previous: null },
      }),
      at(5, { type: 'default_set', promptId: B, details: { previousDefaultPromptId: A, trafficShare: 20 } }),
      at(6, {
        type: 'split_changed',
        promptId: null,
        versionNumber: null,
        details: { trafficSplit: null, previous: split([A, 80], [B, 20]) },
      }),
    ]);
    expect(brief(intervals).map(({ share, from, to }) => [share, from, to])).toEqual([
      [0, time(6), null],
      [80, time(4), time(6)],
      [100, time(2), time(4)],
      [0, time(1), time(2)],
    ]);
  });

  it('drops a share held for no time at all (two changes recorded at one instant), and keeps the list order of one instant', () => {
    const intervals = intervalsOf(A, [
      at(0, { type: 'created' }),
      at(1, { type: 'promoted', details: { gate: null, trafficShare: 0 } }),
      at(2, { type: 'default_set', details: { previousDefaultPromptId: null, trafficShare: 100 } }),
      at(2, {
        type: 'split_changed',
        promptId: null,
        versionNumber: null,
        details: { trafficSplit: split([A, 40], [B, 60]), previous: null, defaultPromptId: A },
        ...OPERATOR,
      }),
    ]);
    expect(brief(intervals).map(({ share, from, to, by }) => [share, from, to, by])).toEqual([
      [40, time(2), null, 'operator'],
      [0, time(1), time(2), 'deployer'],
    ]);
  });

  it('has none for a prompt never Live, and knows the event that made a prompt', () => {
    const events = [
      at(0, { type: 'created' }),
      at(1, { type: 'saved', versionNumber: 2, details: { status: 'Draft' } }),
    ];
    expect(intervalsOf(A, events)).toEqual([]);
    expect(isCreationOf(events[0], A)).toBe(true);
    expect(isCreationOf(events[0], A.toUpperCase())).toBe(true);
    expect(isCreationOf(events[0], B)).toBe(false);
    expect(isCreationOf(at(0, { type: 'restored' }), A)).toBe(true);
    expect(isCreationOf(at(0, { type: 'duplicated' }), A)).toBe(true);
    expect(isCreationOf(events[1], A)).toBe(false);
  });

  it('says the share, and how a prompt with none is reached', () => {
    expect(shareText(50)).toBe('50 % of traffic');
    expect(shareText(100)).toBe('100 % of traffic');
    expect(shareText(0)).toBe('0 % of traffic (only calls with ?prompt=)');
  });
});
