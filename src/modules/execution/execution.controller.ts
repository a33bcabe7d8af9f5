import { Body, Controller, Header, HttpCode, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ExecutionExceptionFilter } from '../../common/http/exception-filters';
import { headerOf, type HttpResponseLike, requestIdOf, setHeader } from '../../common/http/http-context';
import { noteProviderTime } from '../../common/metrics/request-metrics';
import { KeyThrottlerGuard } from '../../common/rate-limit/key-throttler.guard';
import { ExecutionAccessGuard, type ExecutionRequest } from './execution-access.guard';
import { toExecutionAnswer } from './execution-outcome';
import { ExecutionService } from './execution.service';

/**
 * `POST {tenant_base_url}/api/v1/<path>`: the execution API. Flat `{error, message, field?}` error bodies, and the
 * answer is always JSON, even when it is the model's raw text (a JSON string).
 */
@ApiExcludeController()
@UseFilters(ExecutionExceptionFilter)
// Rate limits right after key and endpoint resolution, before any other work (cache hits count).
@UseGuards(ExecutionAccessGuard, KeyThrottlerGuard)
@Controller()
export class ExecutionController {
  constructor(private readonly execution: ExecutionService) {}

  @Post('api/v1/*path')
  @HttpCode(200)
  @Header('Content-Type', 'application/json; charset=utf-8')
  async execute(
    @Req() request: ExecutionRequest,
    @Res({ passthrough: true }) response: HttpResponseLike,
    @Body() body: unknown,
    @Query('prompt') prompt?: unknown,
  ): Promise<string> {
    const selector = (Array.isArray(prompt) ? prompt[0] : prompt) as string | undefined;
    const outcome = await this.execution.run({
      principal: request.principal!,
      definition: request.endpointDefinition!,
      source: 'Api',
      requestId: requestIdOf(request) ?? '',
      body,
      prompt: { selector: selector || undefined },
      cache: { bypass: headerOf(request, 'x-cache-bypass')?.trim().toLowerCase() === 'true' },
    });
    noteProviderTime(request, outcome.attempts);
    const answer = toExecutionAnswer(outcome);
    for (const name in answer.headers) setHeader(response, name, answer.headers[name]);
    // A failure is rendered by the execution surface's filter, from the same error its log row describes.
    if ('error' in answer) throw answer.error;
    return answer.body;
  }
}
