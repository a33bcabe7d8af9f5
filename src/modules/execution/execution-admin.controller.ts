import { NO_TAGS } from '../../common/tags/tags';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AllowReadOnly } from '../../common/auth/admin-permission.guard';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParam } from '../../common/http/api-schema.decorators';
import { type HttpRequestLike, requestIdOf } from '../../common/http/http-context';
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
   * version and model that ran, tokens, cost, latency and the id of the log row (source TestPage). A failure answers
   * the execution's error status with its message in the envelope.
   */
  @Post('test')
  @HttpCode(200)
  @AllowReadOnly()
  @ApiOperation({ operationId: 'runTest', summary: 'Test-run a prompt of an endpoint' })
  @ApiEnvelope(TestRunResponse, {
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
  testRun(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The endpoint's id") id: string,
    @Body() dto: TestRunDto,
    @Req() request: HttpRequestLike,
  ): Promise<TestRunResponse> {
    return this.execution.testRun(
      principal,
      id,
      dto.promptId,
      dto.inputs ?? {},
      requestIdOf(request) ?? '',
      dto.tags ?? NO_TAGS,
    );
  }
}
