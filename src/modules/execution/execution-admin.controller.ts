import { NO_TAGS } from '../../common/tags/tags';
import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AllowReadOnly } from '../../common/auth/admin-permission.guard';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParam } from '../../common/http/api-schema.decorators';
import { ValidationError } from '../../common/errors/app-error';
import { type HttpRequestLike, type HttpResponseLike, requestIdOf, setHeader } from '../../common/http/http-context';
import { TestRunDto } from './dto/test-run.dto';
import { TestRunResponse } from './dto/test-run.response';
import { ExecutionService } from './execution.service';

/** The dashboard's test runner: runs any prompt of an endpoint, logged with source TestPage. */
@ApiTags('endpoints')
@AdminRoute()
@Controller('admin/v1/endpoints/:id')
export class ExecutionAdminController {
  constructor(private readonly execution: ExecutionService) {}

  /**
   * `data.output` is what the execution API would answer for these inputs; beside it, the rendered prompt, the prompt
   * version and model that ran, tokens, cost, latency and the id of the log row (source TestPage). The body names
   * either `promptId` (a saved prompt, Draft included) or `prompt` (unsaved text, checked as a prompt create is and
   * logged with promptId null). A failure answers the execution's error status with its message in the envelope.
   * Every run that was logged, failed ones included, names its log row in the `X-Log-Id` header, so the raw answer of
   * a failed run can be read there.
   */
  @Post('test')
  @HttpCode(200)
  @AllowReadOnly()
  @ApiOperation({ operationId: 'runTest', summary: 'Test-run a prompt of an endpoint' })
  @ApiEnvelope(TestRunResponse, {
    headers: {
      'X-Log-Id': {
        description:
          "The id of the run's execution log row (as `data.logId`); failed runs that were logged send it too",
        schema: { type: 'string', format: 'uuid' },
      },
    },
    failures: {
      400: "The request failed validation, or the inputs do not fit the endpoint's input fields",
      404: 'No endpoint with this id in the tenant (or it is deleted), or no prompt promptId on it',
      409: 'The prompt is archived',
      413: true,
      422: true,
      502: true,
      504: true,
      429: "The key's admin rate limit is used up, or the key or its tenant has as many model calls in flight as it may: retry after Retry-After seconds",
      503: 'The database is unavailable, or the queue of template renders is full and this tenant holds most of it: retry after Retry-After seconds',
    },
  })
  async testRun(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The endpoint's id") id: string,
    @Body() dto: TestRunDto,
    @Req() request: HttpRequestLike,
    @Res({ passthrough: true }) response: HttpResponseLike,
  ): Promise<TestRunResponse> {
    const run = await this.execution.testRun(
      principal,
      id,
      promptOf(dto),
      dto.inputs ?? {},
      requestIdOf(request) ?? '',
      dto.tags ?? NO_TAGS,
    );
    setHeader(response, 'X-Log-Id', run.logId);
    return run.answer();
  }
}

/** A test run names a saved prompt or gives an unsaved one: exactly one of them. */
function promptOf(dto: TestRunDto): { promptId: string } | { unsaved: NonNullable<TestRunDto['prompt']> } {
  if (dto.promptId !== undefined && dto.prompt !== undefined) {
    throw new ValidationError('Give either promptId (a saved prompt) or prompt (unsaved text), not both', 'prompt');
  }
  if (dto.prompt !== undefined) return { unsaved: dto.prompt };
  if (dto.promptId === undefined) {
    throw new ValidationError('promptId or prompt is required: the saved prompt to run, or unsaved text', 'promptId');
  }
  return { promptId: dto.promptId };
}
