import { ValidationError } from '../../common/errors/app-error';
import { scoreRequestOf } from './score-request';

const fieldOf = (body: unknown) => {
  try {
    scoreRequestOf(body);
    return 'accepted';
  } catch (error) {
    return (error as ValidationError).field;
  }
};

describe('scoreRequestOf', () => {
  it('reads requestId, name, value and comment, ignoring other fields', () => {
    expect(scoreRequestOf({ requestId: 'r1', name: 'helpful', value: true, extra: 1 })).toEqual({
      requestId: 'r1',
      input: { name: 'helpful', value: true, comment: null },
    });
    expect(scoreRequestOf({ requestId: 'r1', name: 'tone', value: 'formal', comment: 'ok' }).input.comment).toBe('ok');
  });

  it.each([
    ['a body that is not an object', [1], null],
    ['null', null, null],
    ['no requestId', { name: 'a', value: 1 }, 'requestId'],
    ['a requestId of 129 characters', { requestId: 'r'.repeat(129), name: 'a', value: 1 }, 'requestId'],
    ['no name', { requestId: 'r', value: 1 }, 'name'],
    ['a name of 65 characters', { requestId: 'r', name: 'n'.repeat(65), value: 1 }, 'name'],
    ['no value', { requestId: 'r', name: 'a' }, 'value'],
    ['an object value', { requestId: 'r', name: 'a', value: {} }, 'value'],
    ['a comment of 2001 characters', { requestId: 'r', name: 'a', value: 1, comment: 'c'.repeat(2001) }, 'comment'],
  ])('refuses %s, naming the field', (_, body, field) => {
    expect(fieldOf(body)).toBe(field);
  });
});
