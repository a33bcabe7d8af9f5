import { Controller, Delete, Get, HttpCode, Inject, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthenticatedRequest } from '../../common/auth/api-key.guard';
import { type HttpResponseLike, setHeader } from '../../common/http/http-context';
import { AdminThrottlerGuard } from '../../common/rate-limit/key-throttler.guard';
import { McpAuthGuard } from './mcp-auth.guard';
import { McpExceptionFilter } from './mcp-exception.filter';
import { mcpSdk } from './mcp-sdk';
import { McpServerFactory } from './mcp-server.factory';
import { MCP_TOOL_GROUPS, type McpTool, type McpToolGroup } from './mcp-tool';

type RawCarrier<T> = T & { raw?: T; hijack?: () => void };

/**
 * The MCP endpoint: stateless Streamable HTTP (one server per request), kept out of the OpenAPI document. Each MCP
 * request counts against the key's admin rate limit, as an admin REST call does.
 */
@ApiExcludeController()
@Controller('mcp')
@UseGuards(McpAuthGuard, AdminThrottlerGuard)
@UseFilters(McpExceptionFilter)
export class McpController {
  /** The tools do not depend on the caller (the principal is passed to each call), so they are built once. */
  private readonly tools: McpTool[];

  constructor(
    private readonly servers: McpServerFactory,
    @Inject(MCP_TOOL_GROUPS) groups: McpToolGroup[],
  ) {
    this.tools = groups.flatMap((group) => group.tools());
  }

  @Post()
  async handle(@Req() request: RawCarrier<AuthenticatedRequest>, @Res() response: RawCarrier<HttpResponseLike>): Promise<void> {
    const server = this.servers.build(request.principal!, this.tools);
    const { StreamableHTTPServerTransport } = mcpSdk();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The transport writes to the Node response itself; on Fastify the reply must be handed over first.
    response.hijack?.();
    const rawRequest = (request.raw ?? request) as unknown as IncomingMessage;
    const rawResponse = (response.raw ?? response) as unknown as ServerResponse;
    rawResponse.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(rawRequest, rawResponse, request.body);
  }

  /** Stateless server: no SSE stream to resume and no session to end. */
  @Get()
  @HttpCode(405)
  getNotAllowed(@Res({ passthrough: true }) response: HttpResponseLike) {
    return this.methodNotAllowed(response);
  }

  @Delete()
  @HttpCode(405)
  deleteNotAllowed(@Res({ passthrough: true }) response: HttpResponseLike) {
    return this.methodNotAllowed(response);
  }

  private methodNotAllowed(response: HttpResponseLike) {
    setHeader(response, 'Allow', 'POST');
    return { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; use POST' }, id: null };
  }
}
