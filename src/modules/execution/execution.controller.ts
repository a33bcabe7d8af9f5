import { Body, Controller, Header, HttpCode, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { onConnectionClose } from '../../common/http/connection-watch';
import { ExecutionExceptionFilter } from '../../common/http/exception-filters';
import { headerOf, type HttpResponseLike, requestIdOf, setHeader } from '../../common/http/http-context';
import { noteProviderTime } from '../../common/metrics/request-metrics';
import { KeyThrottlerGuard } from '../../common/rate-limit/key-throttler.guard';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { principalOf } from '../../common/http/request-context';
import { ValidationError } from '../../common/errors/app-error';
import { parseTagsHeader, TAGS_HEADER } from '../../common/tags/tags';
import { ClientDeparture } from './client-departure';
import { ExecutionAccessGuard, type ExecutionRequest } from './execution-access.guard';
import { type ExecutionAnswer, type ExecutionOutcome, toExecutionAnswer } from './execution-outcome';
import type { ApiCall } from './execution-call';
import { ExecutionService } from './execution.service';
import { ExecutionStreamService } from './streaming/execution-stream.service';

/**
 * `POST {tenant_base_url}/api/v1/<path>`: the execution API. Flat `{error, message, field?}` error bodies, and the
 * answer is JSON, even when it is the model's raw text (a JSON string); or, asked with `Accept: text/event-stream` or
 * `?stream=true`, an event stream once the model is called.
 */
@ApiExcludeController()
@UseFilters(ExecutionExceptionFilter)
// Rate limits right after key and endpoint resolution, before any other work (cache hits count).
@UseGuards(ExecutionAccessGuard, KeyThrottlerGuard)
@RateLimit('execution')
@Controller()
export class ExecutionController {
  constructor(
    private readonly execution: ExecutionService,
    private readonly streams: ExecutionStreamService,
  ) {}

  @Post('api/v1/*path')
  @HttpCode(200)
  @Header('Content-Type', 'application/json; charset=utf-8')
  async execute(
    @Req() request: ExecutionRequest,
    @Res({ passthrough: true }) response: HttpResponseLike,
    @Body() body: unknown,
    @Query('prompt') prompt?: unknown,
    @Query('stream') stream?: unknown,
  ): Promise<string | undefined> {
    const selector = (Array.isArray(prompt) ? prompt[0] : prompt) as string | undefined;
    // A client that leaves before its answer is complete stops its provider call and the attempts planned after it,
    // plain or streamed; the call is logged as client_closed.
    const departure = new ClientDeparture();
    onConnectionClose(response, (answered) => {
      if (!answered) departure.left();
    });
    // Checked before anything runs: a bad X-Tags header is a 400 naming the tag, and not logged.
    const tags = parseTagsHeader(headerOf(request, 'x-tags'));
    if (tags.problem !== undefined) throw new ValidationError(tags.problem, TAGS_HEADER);
    const call: ApiCall = {
      kind: 'api',
      principal: principalOf(request),
      definition: request.endpointDefinition!,
      requestId: requestIdOf(request) ?? '',
      body,
      tags: tags.tags,
      prompt: { selector: selector || undefined, header: (name) => headerOf(request, name) },
      cache: { bypass: headerOf(request, 'x-cache-bypass')?.trim().toLowerCase() === 'true' },
      departure,
    };
    // The provider time of the call, for the overhead the metrics report (known once the outcome is).
    const timed = (outcome: ExecutionOutcome) => noteProviderTime(request, outcome.attempts);
    let answer: ExecutionAnswer;
    if (wantsStream(headerOf(request, 'accept'), stream)) {
      const opened = await this.streams.open(call, timed);
      if ('events' in opened) {
        await this.streams.writeOn(response, opened, departure);
        return undefined;
      }
      answer = opened;
    } else {
      const outcome = await this.execution.run(call);
      timed(outcome);
      answer = toExecutionAnswer(outcome);
    }
    for (const name in answer.headers) setHeader(response, name, answer.headers[name]);
    // A failure is rendered by the execution surface's filter, from the same error its log row describes.
    if ('error' in answer) throw answer.error;
    return answer.body;
  }
}

/** Whether the caller asked for an event stream: `Accept: text/event-stream`, or `?stream=true` (`false` or absent: no). */
function wantsStream(accept: string | undefined, stream: unknown): boolean {
  const value = Array.isArray(stream) ? (stream as unknown[])[0] : stream;
  if (value !== undefined && value !== 'true' && value !== 'false') {
    throw new ValidationError("Query parameter 'stream' must be true or false", 'stream');
  }
  return value === 'true' || (accept?.toLowerCase().includes('text/event-stream') ?? false);
}
