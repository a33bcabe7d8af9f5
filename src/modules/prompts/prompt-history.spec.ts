import { savedEvent, transitionEvents, type ChangeSubject } from './prompt-history';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const ENDPOINT = '44444444-4444-4444-8444-444444444444';
const KEY = '55555555-5555-4555-8555-555555555555';

const subject = (endpoint: Partial<ChangeSubject['endpoint']> = {}): ChangeSubject => ({
  endpoint: { id: ENDPOINT, defaultPromptId: null, trafficSplit: null, ...endpoint },
  promptId: A,
  versionNumber: 3,
  keyId: KEY,
});
const typesOf = (events: { type: string }[]) => events.map((event) => event.type);

describe('prompt history of a transition', () => {
  it('records a promotion, with how the gate was passed and the share it answers at once, and a forced one as gate_forced too', () => {
    const [plain] = transitionEvents('promote', subject(), { wasDefault: false, gate: null });
    expect(plain).toEqual({
      type: 'promoted',
      endpointId: ENDPOINT,
      promptId: A,
      versionNumber: 3,
      keyId: KEY,
      details: { gate: null, trafficShare: 0 },
    });
    const gated = transitionEvents('promote', subject(), { wasDefault: false, gate: { forced: false, runId: 'r1' } });
    expect(gated.map((event) => [event.type, event.details])).toEqual([
      ['promoted', { gate: { forced: false, runId: 'r1' }, trafficShare: 0 }],
    ]);
    const forced = transitionEvents('promote', subject(), {
      wasDefault: false,
      gate: { forced: true, reason: 'hotfix', runId: null },
    });
    expect(forced.map((event) => [event.type, event.details])).toEqual([
      ['promoted', { gate: { forced: true, runId: null }, trafficShare: 0 }],
      ['gate_forced', { reason: 'hotfix', runId: null }],
    ]);
  });

  it('records set-default with the replaced default and the share each of them answers after it, and nothing when already default', () => {
    const [event] = transitionEvents('setDefault', subject({ defaultPromptId: B }), { wasDefault: false, gate: null });
    expect(event.details).toEqual({ previousDefaultPromptId: B, trafficShare: 100, previousDefaultTrafficShare: 0 });
    const [first] = transitionEvents('setDefault', subject(), { wasDefault: false, gate: null });
    expect(first.details).toEqual({
      previousDefaultPromptId: null,
      trafficShare: 100,
      previousDefaultTrafficShare: null,
    });
    const split = {
      variants: [
        { promptId: A, weight: 40 },
        { promptId: B, weight: 60 },
      ],
      stickyBy: 'none',
    };
    const [inSplit] = transitionEvents('setDefault', subject({ defaultPromptId: B, trafficSplit: split }), {
      wasDefault: false,
      gate: null,
    });
    expect(inSplit.details).toEqual({ previousDefaultPromptId: B, trafficShare: 40, previousDefaultTrafficShare: 60 });
    expect(transitionEvents('setDefault', subject({ defaultPromptId: A }), { wasDefault: true, gate: null })).toEqual(
      [],
    );
  });

  it('records demoted with whether it cleared the default, archived and unarchived', () => {
    expect(transitionEvents('demote', subject(), { wasDefault: true, gate: null })[0].details).toEqual({
      wasDefault: true,
    });
    expect(typesOf(transitionEvents('archive', subject(), { wasDefault: false, gate: null }))).toEqual(['archived']);
    expect(typesOf(transitionEvents('unarchive', subject(), { wasDefault: false, gate: null }))).toEqual([
      'unarchived',
    ]);
  });

  it('records a save with the version it follows, what changed and the share the new version answers at once', () => {
    const before = {
      template: 'a',
      llmModel: 'm',
      temperature: 0.7,
      maxTokens: 10,
      customParameters: {},
      retries: 0,
      fallbackModels: [],
    };
    const change = { before, after: { ...before, template: 'b', maxTokens: 20 }, changeNotes: 'why' };
    const split = {
      variants: [
        { promptId: A, weight: 25 },
        { promptId: B, weight: 75 },
      ],
      stickyBy: 'key',
    };
    const live = savedEvent(subject({ trafficSplit: split }), { status: 'Live', currentVersion: 2 }, change);
    expect(live).toMatchObject({ type: 'saved', promptId: A, versionNumber: 3, keyId: KEY });
    expect(live.details).toEqual({
      previousVersionNumber: 2,
      status: 'Live',
      trafficShare: 25,
      changed: ['template', 'maxTokens'],
      changeNotes: 'why',
    });
    const liveDefault = savedEvent(subject({ defaultPromptId: A }), { status: 'Live', currentVersion: 2 }, change);
    expect(liveDefault.details.trafficShare).toBe(100);
    const draft = savedEvent(subject({ defaultPromptId: A }), { status: 'Draft', currentVersion: 2 }, change);
    expect(draft.details.trafficShare).toBe(0);
  });
});
