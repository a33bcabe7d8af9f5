import { ArgumentsHost, Catch, ExceptionFilter, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AppLogger } from '../logging/app-logger';
import { failure } from './envelope';
import { describeFailure, Failure } from './error-mapping';
import { HttpRequestLike, HttpResponseLike, pathOf, requestIdOf, setHeader } from './http-context';
import { type ErrorShape, errorSurfaceOf, SURFACES } from './surface';

/** A refusal as a surface renders it. */
export interface SurfaceAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

// Decorated so its constructor's parameter types are emitted: the filters below inherit this constructor.
@Injectable()
export abstract class SurfaceFilter implements ExceptionFilter {
  constructor(
    protected readonly adapterHost: HttpAdapterHost,
    protected readonly logger: AppLogger,
  ) {}

  catch(thrown: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<HttpRequestLike>();
    const response = http.getResponse<HttpResponseLike>();
    const answer = this.answer(thrown, requestIdOf(request), pathOf(request));
    for (const [name, value] of Object.entries(answer.headers)) setHeader(response, name, value);
    this.adapterHost.httpAdapter.reply(response, answer.body, answer.status);
  }

  /**
   * What this surface answers to `thrown` (status, headers, body), for the filter and for answers written outside
   * any framework (common/http/protocol-errors.ts). The client gets a generic message; what actually failed (with
   * its stack) goes to the service log only.
   */
  answer(thrown: unknown, requestId: string | undefined, path: string): SurfaceAnswer {
    const described = describeFailure(thrown);
    if (described.unexpected !== undefined) {
      const error = described.unexpected as Error;
      this.logger.write('error', error?.message ?? String(error), { requestId, path, stack: error?.stack });
    } else if (described.cause !== undefined) {
      const cause = described.cause as Error;
      this.logger.write('warn', described.message, { requestId, path, cause: cause?.message ?? String(cause) });
    }
    return { status: described.status, headers: this.headersOf(described), body: this.body(described) };
  }

  protected headersOf(described: Failure): Record<string, string> {
    return described.headers;
  }

  protected abstract body(failure: Failure): unknown;
}

/** Admin surface: `{succeeded: false, messages, data: null}`. */
@Injectable()
@Catch()
export class AdminExceptionFilter extends SurfaceFilter {
  protected body(described: Failure): unknown {
    return failure(described.messages);
  }
}

/** Execution surface: flat `{error, message, field?}` bodies. */
@Injectable()
@Catch()
export class ExecutionExceptionFilter extends SurfaceFilter {
  protected body(described: Failure): unknown {
    const body: Record<string, unknown> = { error: described.error, message: described.message };
    if (described.field !== undefined) body.field = described.field;
    return { ...body, ...described.extra };
  }
}

/**
 * MCP surface: refusals before a tool runs (auth, limits, the body) as one JSON-RPC error `<code>: <message>`, with
 * the WWW-Authenticate challenge MCP clients expect on a 401.
 */
@Injectable()
@Catch()
export class McpExceptionFilter extends SurfaceFilter {
  protected headersOf(described: Failure): Record<string, string> {
    return described.status === 401
      ? { ...described.headers, 'WWW-Authenticate': 'Bearer realm="promptgate"' }
      : described.headers;
  }

  protected body(described: Failure): unknown {
    return { jsonrpc: '2.0', error: { code: -32001, message: `${described.error}: ${described.message}` }, id: null };
  }
}

/**
 * Errors raised outside any controller (unknown routes, body parsing): rendered in the error shape the surface table
 * gives the path.
 */
@Injectable()
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  private readonly byShape: Record<ErrorShape, SurfaceFilter>;

  constructor(admin: AdminExceptionFilter, execution: ExecutionExceptionFilter, mcp: McpExceptionFilter) {
    this.byShape = { envelope: admin, flat: execution, jsonrpc: mcp };
  }

  catch(thrown: unknown, host: ArgumentsHost): void {
    this.filterFor(pathOf(host.switchToHttp().getRequest<HttpRequestLike>())).catch(thrown, host);
  }

  /** The filter of the error shape of a path (without its query): /admin's, /mcp's, or the flat one for the rest. */
  filterFor(path: string): SurfaceFilter {
    return this.byShape[SURFACES[errorSurfaceOf(path)].errorShape];
  }
}
