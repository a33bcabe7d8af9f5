import { Injectable } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../../common/auth/principal';
import { ForbiddenError } from '../../common/errors/app-error';
import { AppLogger } from '../../common/logging/app-logger';
import { EndpointResources } from './endpoint.resources';
import type { McpCallLimits, McpRequestLimits } from '../../common/rate-limit/mcp-call-limits';
import { INVALID_PARAMS, mcpFailureOf } from './mcp-failure';
import { mcpSdk } from './mcp-sdk';
import type { McpTool } from './mcp-tool';

const SERVER_INFO = { name: 'promptgate', version: '1.0.0' };
const INSTRUCTIONS =
  'Promptgate turns prompts into HTTP endpoints. An endpoint has input fields (the JSON body callers send), optional ' +
  'output fields (the JSON it answers) and prompts: Liquid templates reading {{ inputs.<field> }}, with a model and ' +
  'settings. Prompts go Draft → Live (promote) → default (set_default_prompt); every save of the template, model or ' +
  'settings is a new immutable version. Use validate_template before saving, run_endpoint to try an endpoint. Every ' +
  'tool answers structured JSON (the REST data of the same call; a list as {"items": [...]}), also as compact JSON text.';

/**
 * The hints a client shows its user before a call, only where they differ from MCP's defaults (not read-only,
 * destructive, open world) or say more: reads are read-only and closed; writes say whether they destroy anything;
 * running an endpoint calls an LLM (open world) and destroys nothing.
 */
const ANNOTATIONS: Record<McpTool['access'], (name: string) => Record<string, boolean>> = {
  read: () => ({ readOnlyHint: true, openWorldHint: false }),
  write: (name) => ({ destructiveHint: /^(delete|archive)_/.test(name), openWorldHint: false }),
  execute: () => ({ destructiveHint: false }),
};

/**
 * Builds one stateless MCP server per request, its tools bound to the caller and to the request's rate limits. The
 * server is stateless and its tools are fixed, so neither the tool nor the resource list ever announces a change.
 */
@Injectable()
export class McpServerFactory {
  constructor(
    private readonly logger: AppLogger,
    private readonly endpointResources: EndpointResources,
  ) {}

  build(principal: Principal, tools: McpTool[], limits: McpRequestLimits): Server {
    const sdk = mcpSdk();
    const server = new sdk.Server(SERVER_INFO, {
      instructions: INSTRUCTIONS,
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    });
    // A ReadOnly key is shown only the tools it may call (a write tool it calls anyway is still refused).
    const visible = tools.filter((tool) => tool.access !== 'write' || principal.permission !== 'ReadOnly');
    server.setRequestHandler(sdk.requests.ListToolsRequestSchema, () => ({
      tools: visible.map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: ANNOTATIONS[tool.access](tool.name),
      })),
    }));
    server.setRequestHandler(sdk.requests.CallToolRequestSchema, (request, extra) => {
      const tool = tools.find((candidate) => candidate.name === request.params.name);
      if (!tool) throw new sdk.McpError(INVALID_PARAMS, `Unknown tool: ${request.params.name}`);
      return this.call(principal, tool, request.params.arguments ?? {}, limits.forCall(extra.requestId));
    });
    this.endpointResources.register(server, principal, sdk);
    return server;
  }

  private async call(
    principal: Principal,
    tool: McpTool,
    args: Record<string, unknown>,
    limits: McpCallLimits,
  ): Promise<CallToolResult> {
    try {
      // Counted before the permission check, as on the admin API: a refused write still reached the service.
      if (tool.access !== 'execute') await limits.admitCall();
      if (tool.access === 'write' && principal.permission === 'ReadOnly') {
        throw new ForbiddenError(`${tool.name} changes resources and this admin key is ReadOnly`);
      }
      const structuredContent = await tool.call(principal, args, limits);
      return { structuredContent, content: [{ type: 'text', text: JSON.stringify(structuredContent) }] };
    } catch (thrown) {
      return {
        isError: true,
        content: [{ type: 'text', text: mcpFailureOf(thrown, this.logger, { tool: tool.name }).message }],
      };
    }
  }
}
