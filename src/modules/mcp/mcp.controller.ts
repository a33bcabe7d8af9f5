import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Post,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ServerResponse } from 'node:http';
import { McpExceptionFilter } from '../../common/http/exception-filters';
import { Metrics } from '../../common/metrics/metrics';
import {
  type HttpRequestLike,
  type HttpResponseLike,
  nodeRequestOf,
  nodeResponseOf,
  setHeader,
} from '../../common/http/http-context';
import { principalOf } from '../../common/http/request-context';
import { applyRateLimitHeaders } from '../../common/rate-limit/key-throttler.guard';
import { McpRequestLimits } from '../../common/rate-limit/mcp-call-limits';
import { type RateLimitDecision, RateLimiter } from '../../common/rate-limit/rate-limiter';
import { McpAuthGuard } from './mcp-auth.guard';
import { MAX_BATCH_MESSAGES, type McpMessages, mcpMessagesOf } from './mcp-messages';
import { mcpSdk } from './mcp-sdk';
import { McpServerFactory } from './mcp-server.factory';
import { MCP_TOOL_GROUPS, type McpTool, type McpToolGroup } from './mcp-tool';
import { McpToolCatalog } from './mcp-tool-selection';

/** Fastify's reply can hand the Node response over to whoever writes it; Express's response is the Node one. */
type HijackableResponse = HttpResponseLike & { hijack?: () => void };

/** JSON-RPC's code for a message or batch that is not a valid request. */
const INVALID_REQUEST = -32600;

/**
 * The MCP endpoint: stateless Streamable HTTP (one server per request), kept out of the OpenAPI document.
 * Rate limits: every message counts as one admin request of the key, so a JSON-RPC batch of N messages counts N and
 * no message is free. Tool calls are counted one by one and refused as tool errors (a `run_endpoint` call also counts
 * as an execution); the other messages (initialize, tools/list, resources/read, notifications, …) are counted before
 * the request is handled, and refused together with 429. A batch that repeats a request id or holds more than
 * MAX_BATCH_MESSAGES messages is an Invalid Request (400, -32600), counted as one admin request, and nothing of it runs;
 * so is a request naming a tool or toolset that does not exist (400).
 */
@ApiExcludeController()
@Controller('mcp')
@UseGuards(McpAuthGuard)
@UseFilters(McpExceptionFilter)
export class McpController {
  /** The tools do not depend on the caller (the principal is passed to each call), so they are built once. */
  private readonly catalog: McpToolCatalog;

  constructor(
    private readonly servers: McpServerFactory,
    private readonly limiter: RateLimiter,
    @Inject(MCP_TOOL_GROUPS) groups: McpToolGroup[],
    private readonly metrics: Metrics,
  ) {
    this.catalog = new McpToolCatalog(groups);
  }

  @Post()
  async handle(
    @Req() request: HttpRequestLike,
    @Res() response: HijackableResponse,
    @Query('tools') toolNames: unknown,
    @Query('toolsets') toolsetNames: unknown,
  ): Promise<void> {
    const principal = principalOf(request);
    const rawRequest = nodeRequestOf(request);
    const rawResponse = nodeResponseOf(response);
    const messages = mcpMessagesOf(request.body);
    const toolCalls = new Set(messages.toolCallIds);
    const limits = new McpRequestLimits(
      this.limiter,
      principal,
      (decision) => this.reportLimits(rawResponse, decision),
      () => {
        if (this.metrics.enabled) this.metrics.rateLimited('mcp');
      },
    );
    // A request refused as a whole (an invalid batch, an unknown tool name) counts as one admin request.
    const invalid = this.invalidBatch(messages);
    if (invalid !== null) {
      await limits.admitRequests(1);
      return this.refuseInvalid(response, rawResponse, invalid);
    }
    let tools: McpTool[];
    try {
      tools = this.catalog.select({ tools: toolNames, toolsets: toolsetNames });
    } catch (refusal) {
      await limits.admitRequests(1);
      throw refusal;
    }
    // A request of tool calls only is counted call by call; anything else, at least one admin request, now.
    await limits.admitRequests(Math.max(messages.size - messages.toolCallIds.length, toolCalls.size === 0 ? 1 : 0));
    const server = this.servers.build(principal, tools, limits);
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

  /** Why a body is not a batch this server takes, or null. */
  private invalidBatch({ size, duplicateId }: McpMessages): string | null {
    if (size === 0) return 'Invalid Request: a batch holds at least one message';
    if (size > MAX_BATCH_MESSAGES) return `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages`;
    if (duplicateId === undefined) return null;
    const quoted = JSON.stringify(typeof duplicateId === 'string' ? duplicateId.slice(0, 64) : duplicateId);
    return `Invalid Request: the batch uses the id ${quoted} more than once`;
  }

  /** Answers a JSON-RPC Invalid Request, for the whole body (so with a null id), as HTTP 400. */
  private refuseInvalid(response: HijackableResponse, rawResponse: ServerResponse, message: string): void {
    response.hijack?.();
    const body = JSON.stringify({ jsonrpc: '2.0', error: { code: INVALID_REQUEST, message }, id: null });
    rawResponse.writeHead(400, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    rawResponse.end(body);
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
