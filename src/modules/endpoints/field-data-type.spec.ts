import { dataTypeName, matchesDataType } from './field-data-type';

describe('matchesDataType', () => {
  it.each([
    ['string', 'x', [1, null, {}]],
    ['integer', 3, [3.5, Infinity, '3', null]],
    ['number', 3.5, [NaN, Infinity, '1']],
    ['boolean', false, [0, 'true']],
    ['object', { a: 1 }, [null, [], 'x']],
    ['array', [1], [{}, null]],
  ] as const)('%s accepts %p and refuses the rest', (type, accepted, refused) => {
    expect(matchesDataType(accepted, type)).toBe(true);
    for (const value of refused) expect(matchesDataType(value, type)).toBe(false);
  });

  it('names each type with its article', () => {
    expect(
      (['string', 'integer', 'number', 'boolean', 'object', 'array', 'image'] as const).map((type) =>
        dataTypeName(type),
      ),
    ).toEqual(['a string', 'an integer', 'a number', 'a boolean', 'an object', 'an array', 'an image']);
  });
});
