import { IsInt, IsString, Max, Min } from 'class-validator';
import type { Principal } from '../../common/auth/principal';
import { ValidationError } from '../../common/errors/app-error';
import type { McpCallLimits } from '../../common/rate-limit/mcp-call-limits';
import { defineTool, uuidId } from './mcp-tool';

class RenameDto {
  @IsString()
  name: string;

  @IsInt()
  @Min(1)
  @Max(9)
  size: number;
}

const principal = { tenantId: 't1' } as Principal;
const limits: McpCallLimits = {
  admitCall: () => Promise.reject(new Error('not counted here')),
  admitExecution: () => Promise.reject(new Error('not counted here')),
};
const ID = '00000000-0000-4000-8000-000000000001';

describe('defineTool', () => {
  const rename = defineTool({
    name: 'rename',
    title: 'Rename',
    description: 'Renames.',
    access: 'write',
    ids: { id: uuidId('Thing id') },
    input: RenameDto,
    output: 'object',
    run: async ({ ids, input }) => ({ id: ids.id, name: input.name, size: input.size }),
  });
  const list = defineTool({
    name: 'list',
    title: 'List',
    description: 'Lists.',
    access: 'read',
    output: 'list',
    run: async () => [1, 2],
  });

  it('advertises the path ids beside the DTO properties, all required, nothing else accepted', () => {
    expect(rename.inputSchema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid', description: 'Thing id' },
        name: { type: 'string' },
        size: { type: 'integer', minimum: 1, maximum: 9 },
      },
      required: ['id', 'name', 'size'],
      additionalProperties: false,
    });
  });

  it('validates ids and arguments as the REST pipes do, naming the field', async () => {
    await expect(rename.call(principal, { id: 'x', name: 'a', size: 1 }, limits)).rejects.toThrow('id must be a UUID');
    await expect(rename.call(principal, { id: ID, name: 'a', size: 10 }, limits)).rejects.toThrow(
      'size must not be greater than 9',
    );
    await expect(list.call(principal, { extra: 1 }, limits)).rejects.toThrow(ValidationError);
    await expect(rename.call(principal, { id: ID, name: 'a', size: 2 }, limits)).resolves.toEqual({
      id: ID,
      name: 'a',
      size: 2,
    });
  });

  it('answers a list as {items}, says so in its description, and declares an object output schema', async () => {
    await expect(list.call(principal, {}, limits)).resolves.toEqual({ items: [1, 2] });
    expect(list.description).toMatch(/\{"items": \[\.\.\.\]\}/);
    expect(list.outputSchema).toMatchObject({ type: 'object', required: ['items'] });
    expect(rename.outputSchema).toEqual({ type: 'object' });
  });
});
