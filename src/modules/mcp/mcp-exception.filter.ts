import { ArgumentsHost, Catch, ExceptionFilter, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { describeFailure } from '../../common/http/error-mapping';
import { type HttpResponseLike, setHeader } from '../../common/http/http-context';

/** Transport-level refusals (auth, rate limit) as JSON-RPC errors, with the WWW-Authenticate challenge MCP clients expect. */
@Injectable()
@Catch()
export class McpExceptionFilter implements ExceptionFilter {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(thrown: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<HttpResponseLike>();
    const failure = describeFailure(thrown);
    for (const [name, value] of Object.entries(failure.headers)) setHeader(response, name, value);
    if (failure.status === 401) setHeader(response, 'WWW-Authenticate', 'Bearer realm="promptgate"');
    const body = { jsonrpc: '2.0', error: { code: -32001, message: `${failure.error}: ${failure.message}` }, id: null };
    this.adapterHost.httpAdapter.reply(response, body, failure.status);
  }
}
