import { eventActor, eventSummary, type PromptEvent } from './event-text';

const event = (patch: Partial<PromptEvent>): PromptEvent => ({
  type: 'created',
  promptId: '11111111-1111-4111-8111-111111111111',
  versionNumber: 1,
  keyId: '22222222-2222-4222-8222-222222222222',
  keyName: 'deployer',
  createdAt: '2026-11-26T10:42:00.000Z',
  details: {},
  ...patch,
});

describe('prompt event text', () => {
  it('says what happened, with the version and what a reader needs', () => {
    expect(eventSummary(event({ type: 'created' }))).toBe('Created v1');
    expect(eventSummary(event({ type: 'promoted', versionNumber: 3, details: { gate: null } }))).toBe('Promoted v3');
    expect(eventSummary(event({ type: 'promoted', versionNumber: 3, details: { gate: { forced: true } } }))).toBe(
      'Promoted v3 past the promotion gate',
    );
    expect(
      eventSummary(event({ type: 'saved', versionNumber: 4, details: { status: 'Live', trafficShare: 30 } })),
    ).toBe('Saved v4, live at once for 30 % of traffic');
    expect(
      eventSummary(event({ type: 'saved', versionNumber: 2, details: { status: 'Draft', trafficShare: 0 } })),
    ).toBe('Saved v2');
    expect(eventSummary(event({ type: 'gate_forced', details: { reason: 'Hotfix' } }))).toBe(
      'Promotion gate forced for v1: “Hotfix”',
    );
    expect(eventSummary(event({ type: 'demoted', versionNumber: 2, details: { wasDefault: true } }))).toBe(
      'Demoted v2 to Draft, leaving the endpoint without a default',
    );
    expect(eventSummary(event({ type: 'default_set', versionNumber: 2 }))).toBe("Set v2 as the endpoint's default");
    expect(eventSummary(event({ type: 'restored', details: { sourceName: 'Summary', sourceVersionNumber: 2 } }))).toBe(
      'Restored from Summary v2',
    );
    expect(
      eventSummary(
        event({ type: 'split_changed', versionNumber: null, promptId: null, details: { trafficSplit: null } }),
      ),
    ).toBe('Traffic split removed');
  });

  it('names the key, its id when it has no name now, or no key', () => {
    expect(eventActor(event({}))).toBe('by key deployer');
    expect(eventActor(event({ keyName: null }))).toBe('by key 22222222…');
    expect(eventActor(event({ keyName: null, keyId: null }))).toBe('without a key');
  });
});
