import { z, type ZodRawShape } from 'zod';
import type { Principal } from '../../common/auth/principal';
import { MAX_INTEGER } from '../../common/http/integer-bounds';
import { LIST_PAGE_SIZE } from '../../common/http/paging';
import type { McpCallLimits } from './mcp-call-limits';

/**
 * One MCP tool: a thin adapter from tool arguments to a service call, like a controller handler. `access: 'write'`
 * tools are refused to ReadOnly keys, as the matching REST routes are; `execute` (running an endpoint) is allowed to
 * them, as executing is, but is not read-only: it calls the LLM and is logged.
 * Each call counts against the key's rate limits before it runs: `read` and `write` calls are counted as one admin
 * request by the server before `run`; an `execute` tool counts itself, with `limits.admitExecution(endpoint)` once it
 * knows the endpoint and before any other work, since the endpoint's own limits apply to it.
 */
export interface McpTool<Shape extends ZodRawShape = ZodRawShape> {
  name: string;
  title: string;
  description: string;
  access: 'read' | 'write' | 'execute';
  input: Shape;
  run(principal: Principal, args: z.infer<z.ZodObject<Shape>>, limits: McpCallLimits): Promise<unknown>;
}

/** The same tool arguments, every one optional (update tools take any subset). */
export const optionalShape = <Shape extends Record<string, z.ZodTypeAny>>(shape: Shape) =>
  Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof Shape]: z.ZodOptional<Shape[K]>;
  };

/** An integer argument, bounded as every integer of a REST request is: at most MAX_INTEGER (the int4 columns). */
export const integerArgument = () => z.number().int().max(MAX_INTEGER);

/** `page` and `pageSize` of a paged list tool, checked by the REST query DTO of the matching route. */
export const pageArguments = (size: { default: number; max: number } = LIST_PAGE_SIZE) => ({
  page: integerArgument().optional().describe('Page number, from 1 (default 1)'),
  pageSize: integerArgument().optional().describe(`Items per page, 1..${size.max} (default ${size.default})`),
});
export const PAGED_RESULTS =
  `Results are paged: ${LIST_PAGE_SIZE.default} per page by default (pageSize up to ${LIST_PAGE_SIZE.max}); ` +
  'a full page means there may be more: ask for the next page.';

export const defineTool = <Shape extends ZodRawShape>(tool: McpTool<Shape>): McpTool => tool as unknown as McpTool;

/** Each tool group (endpoints, prompts, …) is a provider listing its tools. */
export abstract class McpToolGroup {
  abstract tools(): McpTool[];
}
export const MCP_TOOL_GROUPS = Symbol('MCP_TOOL_GROUPS');
