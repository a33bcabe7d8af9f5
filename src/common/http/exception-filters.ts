import { ArgumentsHost, Catch, ExceptionFilter, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AppLogger } from '../logging/app-logger';
import { failure } from './envelope';
import { describeFailure, Failure } from './error-mapping';
import { HttpRequestLike, HttpResponseLike, pathOf, requestIdOf, setHeader } from './http-context';

// Decorated so its constructor's parameter types are emitted: the filters below inherit this constructor.
@Injectable()
abstract class SurfaceFilter implements ExceptionFilter {
  constructor(
    protected readonly adapterHost: HttpAdapterHost,
    protected readonly logger: AppLogger,
  ) {}

  catch(thrown: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<HttpRequestLike>();
    const response = http.getResponse<HttpResponseLike>();
    const described = describeFailure(thrown);
    if (described.unexpected !== undefined) {
      const error = described.unexpected as Error;
      this.logger.write('error', error?.message ?? String(error), {
        requestId: requestIdOf(request),
        path: pathOf(request),
        stack: error?.stack,
      });
    }
    for (const [name, value] of Object.entries(described.headers)) setHeader(response, name, value);
    this.adapterHost.httpAdapter.reply(response, this.body(described, request), described.status);
  }

  protected abstract body(failure: Failure, request: HttpRequestLike): unknown;
}

/** Admin surface: `{succeeded: false, messages, data: null}`. */
@Injectable()
@Catch()
export class AdminExceptionFilter extends SurfaceFilter {
  protected body(described: Failure): unknown {
    return failure(described.messages);
  }
}

/** Execution surface: flat `{error, message, field?}` bodies (interface-spec "Execution API error bodies"). */
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
 * Errors raised outside any controller (unknown routes, body parsing): rendered for the surface the path belongs to.
 */
@Injectable()
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly admin: AdminExceptionFilter,
    private readonly execution: ExecutionExceptionFilter,
  ) {}

  catch(thrown: unknown, host: ArgumentsHost): void {
    const path = pathOf(host.switchToHttp().getRequest<HttpRequestLike>());
    const isAdmin = path === '/admin' || path.startsWith('/admin/');
    (isAdmin ? this.admin : this.execution).catch(thrown, host);
  }
}
