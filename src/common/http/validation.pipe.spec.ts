import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, MaxLength, Min, ValidateNested } from 'class-validator';
import { ValidationError } from '../errors/app-error';
import { createValidationPipe, validationMessages } from './validation.pipe';

class Item {
  @IsString()
  @MaxLength(3)
  @Matches(/^[a-z]+$/, { message: 'name must be lower-case letters' })
  name: string;
}

class Body {
  @IsInt()
  @Min(1)
  count: number;

  @ValidateNested({ each: true })
  @Type(() => Item)
  items: Item[];
}

async function failure(body: unknown): Promise<ValidationError> {
  const result = await createValidationPipe()
    .transform(body, { type: 'body', metatype: Body })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect(result).toBeInstanceOf(ValidationError);
  return result as ValidationError;
}

describe('validation messages', () => {
  it('gives one message per problem, each naming its field', async () => {
    const error = await failure({ count: 0, items: [{ name: 'ok' }, { name: 'TOOLONG' }] });
    expect(error.messages).toEqual([
      'count must not be less than 1',
      'items.1.name must be lower-case letters',
      'items.1.name must be shorter than or equal to 3 characters',
    ]);
    expect(error.field).toBe('count');
  });

  it('reports a value of the wrong type once, not with its other constraints', async () => {
    const error = await failure({ count: 'many', items: [{ name: 7 }] });
    expect(error.messages).toEqual(['count must be an integer number', 'items.0.name must be a string']);
  });

  it('rejects unknown properties by name', async () => {
    const error = await failure({ count: 1, items: [], color: 'red' });
    expect(error.messages).toEqual(['property color should not exist']);
    expect(error.field).toBe('color');
  });

  it('names an unknown property of a nested object by its full path', async () => {
    const error = await failure({ count: 1, items: [{ name: 'ok', size: 2 }] });
    expect(error.messages).toEqual(['property items.0.size should not exist']);
  });

  it('returns nothing for no errors', () => {
    expect(validationMessages([])).toEqual([]);
  });
});
