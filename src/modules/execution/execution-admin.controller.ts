import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AllowReadOnly } from '../../common/auth/admin-permission.guard';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { type HttpRequestLike, requestIdOf } from '../../common/http/http-context';
import { UuidParamPipe } from '../../common/http/uuid-param.pipe';
import { TestRunDto } from './dto/test-run.dto';
import { ExecutionService } from './execution.service';

/** The dashboard's test runner: runs any prompt of an endpoint, logged with source TestPage. */
@ApiTags('endpoints')
@AdminRoute()
@Controller('admin/v1/endpoints/:id')
export class ExecutionAdminController {
  constructor(private readonly execution: ExecutionService) {}

  /** `data` is what the execution API would answer for these inputs (any JSON value). */
  @Post('test')
  @HttpCode(200)
  @AllowReadOnly()
  @ApiEnvelope(null)
  testRun(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Body() dto: TestRunDto,
    @Req() request: HttpRequestLike,
  ): Promise<unknown> {
    return this.execution.testRun(principal, id, dto.promptId, dto.inputs ?? {}, requestIdOf(request) ?? '');
  }
}
