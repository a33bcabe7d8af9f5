import { Body, Controller, Header, HttpCode, Post, Query, Req, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ExecutionExceptionFilter } from '../../common/http/exception-filters';
import { requestIdOf } from '../../common/http/http-context';
import { ExecutionAccessGuard, type ExecutionRequest } from './execution-access.guard';
import { ExecutionService } from './execution.service';

/**
 * `POST {tenant_base_url}/api/v1/<path>`: the execution API. Flat `{error, message, field?}` error bodies, and the
 * answer is always JSON, even when it is the model's raw text (a JSON string).
 */
@ApiExcludeController()
@UseFilters(ExecutionExceptionFilter)
@UseGuards(ExecutionAccessGuard)
@Controller()
export class ExecutionController {
  constructor(private readonly execution: ExecutionService) {}

  @Post('api/v1/*path')
  @HttpCode(200)
  @Header('Content-Type', 'application/json; charset=utf-8')
  async execute(@Req() request: ExecutionRequest, @Body() body: unknown, @Query('prompt') prompt?: unknown): Promise<string> {
    const selector = (Array.isArray(prompt) ? prompt[0] : prompt) as string | undefined;
    const result = await this.execution.execute({
      principal: request.principal!,
      definition: request.endpointDefinition!,
      source: 'Api',
      requestId: requestIdOf(request) ?? '',
      body,
      prompt: { selector: selector || undefined },
    });
    return JSON.stringify(result);
  }
}
