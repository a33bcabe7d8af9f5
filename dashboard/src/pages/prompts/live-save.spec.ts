import { liveSaveWarning, liveShareOf } from './live-save';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const split = {
  variants: [
    { promptId: A, weight: 70 },
    { promptId: B, weight: 30 },
  ],
  stickyBy: 'key',
};

describe('saving a Live prompt', () => {
  it('serves the split weight, 100 % as the default without a split, else none of the unpinned traffic', () => {
    expect(liveShareOf({ trafficSplit: split, defaultPromptId: A }, B)).toBe(30);
    expect(liveShareOf({ trafficSplit: split, defaultPromptId: B }, '33333333-3333-4333-8333-333333333333')).toBe(0);
    expect(liveShareOf({ trafficSplit: null, defaultPromptId: A }, A)).toBe(100);
    expect(liveShareOf({ trafficSplit: null, defaultPromptId: A }, B)).toBe(0);
    expect(liveShareOf({ trafficSplit: null, defaultPromptId: null }, B)).toBe(0);
  });

  it('says the new version goes live at once, with the share when there is one', () => {
    expect(liveSaveWarning(30, 'summary')).toBe(
      "This prompt is Live: as soon as you save, the new version answers 30 % of the endpoint's traffic, and every call that pins it with ?prompt=summary.",
    );
    expect(liveSaveWarning(0, 'summary')).toBe(
      'This prompt is Live: as soon as you save, the new version answers every call that pins it with ?prompt=summary.',
    );
  });
});
