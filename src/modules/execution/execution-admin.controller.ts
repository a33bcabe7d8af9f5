import { NO_TAGS } from '../../common/tags/tags';
import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AllowReadOnly } from '../../common/auth/admin-permission.guard';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope, type EnvelopeOptions } from '../../common/http/api-envelope.decorator';
import { onConnectionClose } from '../../common/http/connection-watch';
import { UuidParam } from '../../common/http/api-schema.decorators';
import { ValidationError } from '../../common/errors/app-error';
import { type HttpRequestLike, type HttpResponseLike, requestIdOf, setHeader } from '../../common/http/http-context';
import { TestRunDto } from './dto/test-run.dto';
import { TestRunResponse } from './dto/test-run.response';
import type { TestRunCall } from './execution-call';
import { ExecutionService, testRunAnswer } from './execution.service';
import { ClientDeparture } from './client-departure';
import { ExecutionStreamService } from './streaming/execution-stream.service';

const LOG_ID_HEADER = {
  'X-Log-Id': {
    description: "The id of the run's execution log row (as `data.logId`); failed runs that were logged send it too",
    schema: { type: 'string', format: 'uuid' },
  },
};

/** What a test run can fail with, besides what every admin route can. */
const TEST_RUN_FAILURES: EnvelopeOptions['failures'] = {
  400: "The request failed validation, or the inputs do not fit the endpoint's input fields",
  404: 'No endpoint with this id in the tenant (or it is deleted), no prompt promptId on it, or no such version of it',
  409: 'The prompt is archived',
  413: true,
  422: true,
  502: true,
  504: true,
  429: "The key's admin rate limit is used up, or the key or its tenant has as many model calls in flight as it may: retry after Retry-After seconds",
  503: 'The database is unavailable, or the queue of template renders is full and this tenant holds most of it: retry after Retry-After seconds',
};

/** The dashboard's test runner: runs any prompt of an endpoint, logged with source TestPage. */
@ApiTags('endpoints')
@AdminRoute()
@Controller('admin/v1/endpoints/:id')
export class ExecutionAdminController {
  constructor(
    private readonly execution: ExecutionService,
    private readonly streams: ExecutionStreamService,
  ) {}

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
  @ApiEnvelope(TestRunResponse, { headers: LOG_ID_HEADER, failures: TEST_RUN_FAILURES })
  async testRun(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The endpoint's id") id: string,
    @Body() dto: TestRunDto,
    @Req() request: HttpRequestLike,
    @Res({ passthrough: true }) response: HttpResponseLike,
  ): Promise<TestRunResponse> {
    const run = await this.execution.runTest(await this.callOf(principal, id, dto, request));
    setHeader(response, 'X-Log-Id', run.logId);
    return testRunAnswer(run);
  }

  /**
   * The test run above, answered as an event stream once the model is called, as the execution API streams: `start`
   * `{requestId, promptId, promptVersion, llmModel, cached}` (promptId and promptVersion null for unsaved text), then
   * `delta` `{text}` (an endpoint without output fields) or `partial` `{output}` (the object so far, at most one per
   * 50 ms), then `done` with what the plain test run answers in `data`, or `error` `{error, message, logId}`. A run that
   * fails before its model is called (validation, the prompt, its render) answers the plain test run's error, with
   * X-Log-Id when it was logged. Closing the connection stops the model call; the run is logged as the client leaving.
   */
  @Post('test/stream')
  @HttpCode(200)
  @AllowReadOnly()
  @ApiOperation({ operationId: 'streamTest', summary: 'Test-run a prompt of an endpoint as an event stream' })
  @ApiEnvelope(null, {
    eventStream:
      'The event stream of the run: `start`, `delta` or `partial` pieces, then `done` (the test run) or `error`',
    failures: {
      ...TEST_RUN_FAILURES,
      400: "The request failed validation, the inputs do not fit the endpoint's input fields, or the endpoint answers images (they cannot stream)",
      429: "The key's admin rate limit is used up, or the key has as many event streams or model calls open as it may: retry after Retry-After seconds",
    },
  })
  async streamTestRun(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The endpoint's id") id: string,
    @Body() dto: TestRunDto,
    @Req() request: HttpRequestLike,
    @Res({ passthrough: true }) response: HttpResponseLike,
  ): Promise<TestRunResponse | undefined> {
    const call = await this.callOf(principal, id, dto, request);
    const departure = new ClientDeparture();
    onConnectionClose(response, (answered) => {
      if (!answered) departure.left();
    });
    const answer = await this.streams.openTestRun({ ...call, departure });
    if ('unopened' in answer) {
      setHeader(response, 'X-Log-Id', answer.unopened.logId);
      return testRunAnswer(answer.unopened);
    }
    // Written straight to the connection; the handler returns once the stream has ended (see EnvelopeInterceptor).
    await this.streams.writeOn(response, answer, departure);
    return undefined;
  }

  /** The test run a request asks for (an unknown endpoint is a 404). */
  private callOf(principal: Principal, id: string, dto: TestRunDto, request: HttpRequestLike): Promise<TestRunCall> {
    const requestId = requestIdOf(request) ?? '';
    return this.execution.testRunCall(principal, id, promptOf(dto), dto.inputs ?? {}, requestId, dto.tags ?? NO_TAGS);
  }
}

/** A test run names a saved prompt or gives an unsaved one: exactly one of them. */
function promptOf(dto: TestRunDto): TestRunCall['prompt'] {
  if (dto.promptId !== undefined && dto.prompt !== undefined) {
    throw new ValidationError('Give either promptId (a saved prompt) or prompt (unsaved text), not both', 'prompt');
  }
  if (dto.prompt !== undefined) {
    if (dto.version !== undefined) {
      throw new ValidationError('version names a version of a saved prompt: give it with promptId', 'version');
    }
    return { unsaved: dto.prompt };
  }
  if (dto.promptId === undefined) {
    throw new ValidationError('promptId or prompt is required: the saved prompt to run, or unsaved text', 'promptId');
  }
  return { promptId: dto.promptId, version: dto.version };
}
