import { checksToRun } from './checks-to-run';

const contains = { type: 'contains' as const, value: 'x', caseSensitive: false };

describe('checksToRun', () => {
  it('adds the schema check first for an endpoint with output fields', () => {
    expect(checksToRun([contains], [{ dataType: 'string' }])).toEqual([{ type: 'schema' }, contains]);
  });

  it('keeps the checks as they are when schema is listed, or the endpoint has no structured output', () => {
    expect(checksToRun([contains, { type: 'schema' }], [{ dataType: 'string' }])).toEqual([
      contains,
      { type: 'schema' },
    ]);
    expect(checksToRun([contains], [])).toEqual([contains]);
    expect(checksToRun([contains], [{ dataType: 'image' }])).toEqual([contains]);
  });
});
