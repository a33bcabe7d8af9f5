import { Injectable } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../../common/auth/principal';
import { ForbiddenError } from '../../common/errors/app-error';
import { AppLogger } from '../../common/logging/app-logger';
import { EndpointResources } from './endpoint.resources';
import type { McpCallLimits, McpRequestLimits } from './mcp-call-limits';
import { mcpFailureOf } from './mcp-failure';
import { mcpSdk } from './mcp-sdk';
import type { McpTool } from './mcp-tool';

const SERVER_INFO = { name: 'promptgate', version: '1.0.0' };
const INSTRUCTIONS =
  'Promptgate turns prompts into HTTP endpoints. An endpoint has input fields (the JSON body callers send), optional ' +
  'output fields (the JSON it answers) and prompts: Liquid templates reading {{ inputs.<field> }}, with a model and ' +
  'settings. Prompts go Draft → Live (promote) → default (set_default_prompt); every save of the template, model or ' +
  'settings is a new immutable version. Use validate_template before saving, run_endpoint to try an endpoint.';

/** Builds one stateless MCP server per request, its tools bound to the caller and to the request's rate limits. */
@Injectable()
export class McpServerFactory {
  constructor(
    private readonly logger: AppLogger,
    private readonly endpointResources: EndpointResources,
  ) {}

  build(principal: Principal, tools: McpTool[], limits: McpRequestLimits): McpServer {
    const sdk = mcpSdk();
    const server = new sdk.McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
    for (const tool of tools) {
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: tool.description,
          inputSchema: tool.input,
          annotations: {
            readOnlyHint: tool.access === 'read',
            destructiveHint: tool.access === 'write' && /^(delete|archive)_/.test(tool.name),
            openWorldHint: tool.access === 'execute',
          },
        },
        ((args: Record<string, unknown>, extra: { requestId: string | number }) =>
          this.call(principal, tool, args, limits.forCall(extra.requestId))) as never,
      );
    }
    this.endpointResources.register(server, principal, sdk);
    return server;
  }

  private async call(principal: Principal, tool: McpTool, args: Record<string, unknown>, limits: McpCallLimits): Promise<CallToolResult> {
    try {
      // Counted before the permission check, as on the admin API: a refused write still reached the service.
      if (tool.access !== 'execute') await limits.admitCall();
      if (tool.access === 'write' && principal.permission === 'ReadOnly') {
        throw new ForbiddenError(`${tool.name} changes resources and this admin key is ReadOnly`);
      }
      const result = await tool.run(principal, args as never, limits);
      return { content: [{ type: 'text', text: JSON.stringify(result ?? null, null, 2) }] };
    } catch (thrown) {
      return { isError: true, content: [{ type: 'text', text: mcpFailureOf(thrown, this.logger, { tool: tool.name }).message }] };
    }
  }
}
