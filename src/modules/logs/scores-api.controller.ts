import { Body, Controller, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ExecutionExceptionFilter } from '../../common/http/exception-filters';
import { type HttpRequestLike, type HttpResponseLike, setStatus } from '../../common/http/http-context';
import { principalOf } from '../../common/http/request-context';
import { KeyThrottlerGuard } from '../../common/rate-limit/key-throttler.guard';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { LogScoresService } from './log-scores.service';
import { type ScoreAnswer, toScoreAnswer } from '../scores/score-answer';
import { scoreRequestOf } from '../scores/score-request';
import { AuthenticatedKeyGuard } from '../../common/auth/authenticated-key.guard';

/**
 * `POST {tenant_base_url}/api/v1/_scores`: an application scores one of its executions by its request id, with the key
 * that made it or any admin key of the tenant. Endpoint paths cannot start with `_`, so this never shadows an endpoint.
 * Scores count in the key's own per-minute score window, not its execution windows; errors are the execution API's
 * `{error, message, field?}`. The first score of a name answers 201, a replacement 200.
 */
@ApiExcludeController()
@UseFilters(ExecutionExceptionFilter)
@UseGuards(AuthenticatedKeyGuard, KeyThrottlerGuard)
@RateLimit('score')
@Controller('api/v1')
export class ScoresApiController {
  constructor(private readonly scores: LogScoresService) {}

  @Post('_scores')
  async record(
    @Req() request: HttpRequestLike,
    @Res({ passthrough: true }) response: HttpResponseLike,
    @Body() body: unknown,
  ): Promise<ScoreAnswer> {
    const { requestId, input } = scoreRequestOf(body);
    const { score, created } = await this.scores.scoreRequest(principalOf(request), requestId, input);
    setStatus(response, created ? 201 : 200);
    return toScoreAnswer(requestId, score);
  }
}
