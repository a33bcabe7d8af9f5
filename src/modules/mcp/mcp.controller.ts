import { Controller, Delete, Get, HttpCode, Inject, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ServerResponse } from 'node:http';
import type { AuthenticatedRequest } from '../../common/auth/api-key.guard';
import { McpExceptionFilter } from '../../common/http/exception-filters';
import { Metrics } from '../../common/metrics/metrics';
import { type HttpResponseLike, nodeRequestOf, nodeResponseOf, setHeader } from '../../common/http/http-context';
import { applyRateLimitHeaders } from '../../common/rate-limit/key-throttler.guard';
import { type RateLimitDecision, RateLimiter } from '../../common/rate-limit/rate-limiter';
import { McpAuthGuard } from './mcp-auth.guard';
import { McpRequestLimits, toolCallIdsIn } from './mcp-call-limits';
import { mcpSdk } from './mcp-sdk';
import { McpServerFactory } from './mcp-server.factory';
import { MCP_TOOL_GROUPS, type McpTool, type McpToolGroup } from './mcp-tool';

/** Fastify's reply can hand the Node response over to whoever writes it; Express's response is the Node one. */
type HijackableResponse = HttpResponseLike & { hijack?: () => void };

/**
 * The MCP endpoint: stateless Streamable HTTP (one server per request), kept out of the OpenAPI document.
 * Rate limits: each tool call counts as one admin request of the key (a JSON-RPC batch of N calls counts N; a
 * `run_endpoint` call also counts as an execution), refused one by one as tool errors; a request that carries no tool
 * call (initialize, tools/list, resources/read, …) counts as one admin request, refused with 429 before it is handled,
 * so no MCP request is free.
 */
@ApiExcludeController()
@Controller('mcp')
@UseGuards(McpAuthGuard)
@UseFilters(McpExceptionFilter)
export class McpController {
  /** The tools do not depend on the caller (the principal is passed to each call), so they are built once. */
  private readonly tools: McpTool[];

  constructor(
    private readonly servers: McpServerFactory,
    private readonly limiter: RateLimiter,
    @Inject(MCP_TOOL_GROUPS) groups: McpToolGroup[],
    private readonly metrics: Metrics,
  ) {
    this.tools = groups.flatMap((group) => group.tools());
  }

  @Post()
  async handle(@Req() request: AuthenticatedRequest, @Res() response: HijackableResponse): Promise<void> {
    const principal = request.principal!;
    const rawRequest = nodeRequestOf(request);
    const rawResponse = nodeResponseOf(response);
    const toolCalls = new Set(toolCallIdsIn(request.body));
    const limits = new McpRequestLimits(
      this.limiter,
      principal,
      (decision) => this.reportLimits(rawResponse, decision),
      () => {
        if (this.metrics.enabled) this.metrics.rateLimited('mcp');
      },
    );
    if (toolCalls.size === 0) await limits.admitRequest();
    const server = this.servers.build(principal, this.tools, limits);
    const { StreamableHTTPServerTransport } = mcpSdk();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The transport writes to the Node response itself; on Fastify the reply must be handed over first.
    response.hijack?.();
    rawResponse.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // Every answer leaves through send: a tool call the SDK answered without running a tool is counted first.
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      const id = 'id' in message && !('method' in message) ? message.id : undefined;
      if (id !== undefined && toolCalls.has(id)) await limits.beforeAnswer(id);
      return send(message, options);
    };
    await transport.handleRequest(rawRequest, rawResponse, request.body);
  }

  /** The X-RateLimit-* headers describe the windows of the last counted call (while they can still be sent). */
  private reportLimits(response: ServerResponse, decision: RateLimitDecision): void {
    if (!response.headersSent) applyRateLimitHeaders(response, decision);
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
    return {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; use POST' },
      id: null,
    };
  }
}
