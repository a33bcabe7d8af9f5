import type { Principal } from '../../common/auth/principal';
import { ValidationError } from '../../common/errors/app-error';
import { dtoJsonSchema, type JsonSchema, type ObjectJsonSchema } from '../../common/http/dto-json-schema';
import { MAX_INTEGER, PositiveIntegerParamPipe } from '../../common/http/integer-bounds';
import { LIST_PAGE_SIZE } from '../../common/http/paging';
import { UuidParamPipe } from '../../common/http/uuid-param.pipe';
import { validateDto } from '../../common/http/validation.pipe';
import type { McpCallLimits } from '../../common/rate-limit/mcp-call-limits';

export type ToolAccess = 'read' | 'write' | 'execute';

/**
 * An id a REST route takes in its URL (`/endpoints/:id`), given to the tool as an argument beside the DTO's
 * properties and checked by the same pipe as the route parameter, so a bad one is refused with the same message.
 */
export interface IdArgument<T> {
  schema: JsonSchema;
  parse(value: unknown, name: string): T;
}

const UUID_PIPE = new UuidParamPipe();
const VERSION_NUMBER_PIPE = new PositiveIntegerParamPipe();

export const uuidId = (description: string): IdArgument<string> => ({
  schema: { type: 'string', format: 'uuid', description },
  parse: (value, name) => UUID_PIPE.transform(typeof value === 'string' ? value : '', { type: 'param', data: name }),
});

export const versionNumberId = (description: string): IdArgument<number> => ({
  schema: { type: 'integer', minimum: 1, maximum: MAX_INTEGER, description },
  parse: (value, name) =>
    VERSION_NUMBER_PIPE.transform(typeof value === 'number' ? value : String(value), {
      type: 'param',
      data: name,
    }),
});

type Ids = Record<string, IdArgument<unknown>>;
type ParsedIds<I extends Ids> = { [K in keyof I]: I[K] extends IdArgument<infer T> ? T : never };

/** What a tool's structuredContent holds: the REST `data` of the same call, an array wrapped as `{items}`. */
export type ToolOutput = 'object' | 'list';

/**
 * One row of the MCP tool table: a thin adapter from tool arguments to a service call, like a controller handler.
 * Its arguments are the REST request DTO's properties (validated by that DTO, as REST validates the body or query)
 * plus the route's ids. `access: 'write'` tools are neither listed to nor run for ReadOnly keys, as the matching REST
 * routes refuse them; `execute` (running an endpoint) is allowed to them, as executing is, but is not read-only: it
 * calls the LLM and is logged.
 * Each call counts against the key's rate limits before it runs: `read` and `write` calls are counted as one admin
 * request by the server before `run`; an `execute` tool counts itself, with `limits.admitExecution(endpoint)` once it
 * knows the endpoint and before any other work, since the endpoint's own limits apply to it.
 */
export interface ToolDefinition<Input extends object, I extends Ids> {
  name: string;
  title: string;
  description: string;
  access: ToolAccess;
  /** The REST request DTO; without one the tool takes only its ids. */
  input?: new () => Input;
  ids?: I;
  output: ToolOutput;
  run(call: { principal: Principal; input: Input; ids: ParsedIds<I>; limits: McpCallLimits }): Promise<unknown>;
}

/** A tool as the MCP server lists and calls it. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  access: ToolAccess;
  inputSchema: ObjectJsonSchema;
  outputSchema: JsonSchema;
  /** Validates the arguments, runs the service call and answers the structured result (always an object). */
  call(principal: Principal, args: Record<string, unknown>, limits: McpCallLimits): Promise<Record<string, unknown>>;
}

const LIST_RESULT = ' Result: {"items": [...]}.';
const OUTPUT_SCHEMAS: Record<ToolOutput, JsonSchema> = {
  object: { type: 'object' },
  list: {
    type: 'object',
    properties: { items: { type: 'array', items: { type: 'object' } } },
    required: ['items'],
    additionalProperties: false,
  },
};

export const PAGED_RESULTS =
  `Results are paged: ${LIST_PAGE_SIZE.default} per page by default (pageSize up to ${LIST_PAGE_SIZE.max}); ` +
  'a full page may have a next one.';

export function defineTool<Input extends object, I extends Ids = Record<never, never>>(
  tool: ToolDefinition<Input, I>,
): McpTool {
  const ids = tool.ids ?? ({} as Ids);
  const body = tool.input ? dtoJsonSchema(tool.input) : { properties: {}, required: [] };
  const idSchemas = Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, id.schema]));
  return {
    name: tool.name,
    title: tool.title,
    description: tool.output === 'list' ? tool.description + LIST_RESULT : tool.description,
    access: tool.access,
    inputSchema: {
      type: 'object',
      properties: { ...idSchemas, ...body.properties },
      required: [...Object.keys(ids), ...body.required],
      additionalProperties: false,
    },
    outputSchema: OUTPUT_SCHEMAS[tool.output],
    async call(principal, args, limits) {
      const parsedIds: Record<string, unknown> = {};
      const rest: Record<string, unknown> = { ...args };
      for (const [name, id] of Object.entries(ids)) {
        parsedIds[name] = id.parse(args[name], name);
        delete rest[name];
      }
      const input = tool.input ? validateDto(tool.input, rest) : withoutArguments<Input>(rest);
      const data = await tool.run({ principal, input, ids: parsedIds as ParsedIds<I>, limits });
      return structuredResult(data);
    },
  };
}

/** A tool of ids only refuses any other argument, naming it as the validation pipe names unknown properties. */
function withoutArguments<Input extends object>(rest: Record<string, unknown>): Input {
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    throw new ValidationError(
      unknown.map((name) => `property ${name} should not exist`),
      unknown[0],
    );
  return {} as Input;
}

/** Structured content must be an object: an array (a list) becomes `{items}`. */
function structuredResult(data: unknown): Record<string, unknown> {
  if (Array.isArray(data)) return { items: data };
  if (data !== null && typeof data === 'object') return { ...data };
  throw new Error('A tool answered neither an object nor a list');
}

/** Each tool group (endpoints, prompts, …) is a provider listing its rows of the tool table, under its toolset name. */
export abstract class McpToolGroup {
  /** The name a client selects the group by (`/mcp?toolsets=<name>`). */
  abstract readonly toolset: string;
  abstract tools(): McpTool[];
}
export const MCP_TOOL_GROUPS = Symbol('MCP_TOOL_GROUPS');
