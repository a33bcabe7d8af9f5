import { baselineChoiceOf } from './baseline-choice';

const ID = '6f0e4c1a-1111-4c1a-8a1a-000000000001';

describe('baselineChoiceOf', () => {
  it('reads default (also when absent), none and a prompt version', () => {
    expect(baselineChoiceOf(undefined)).toEqual({ kind: 'default' });
    expect(baselineChoiceOf('default')).toEqual({ kind: 'default' });
    expect(baselineChoiceOf('none')).toEqual({ kind: 'none' });
    expect(baselineChoiceOf({ promptId: ID, versionNumber: 2 })).toEqual({
      kind: 'version',
      version: { promptId: ID, versionNumber: 2 },
    });
  });

  it.each([
    ['latest', 'must be default, none or {promptId, versionNumber}'],
    [null, 'must be default, none or {promptId, versionNumber}'],
    [[ID], 'must be default, none or {promptId, versionNumber}'],
    [{ promptId: 'x', versionNumber: 1 }, '.promptId must be a UUID'],
    [{ promptId: ID, versionNumber: 0 }, '.versionNumber must be an integer of at least 1'],
    [{ promptId: ID, versionNumber: 1.5 }, '.versionNumber must be an integer of at least 1'],
    [{ promptId: ID, versionNumber: 1, extra: true }, '.extra should not exist'],
  ])('refuses %j', (value, problem) => {
    expect(baselineChoiceOf(value)).toBe(problem);
  });
});
