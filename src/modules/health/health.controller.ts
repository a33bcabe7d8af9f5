import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { REQUEST_ID_HEADER } from '../../common/http/api-envelope.decorator';
import { type HttpResponseLike, setStatus } from '../../common/http/http-context';
import { HealthResponse } from './dto/health.response';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Liveness: the process answers. */
  @Get()
  @ApiOperation({ operationId: 'getLiveness', summary: 'Liveness probe', security: [] })
  @ApiOkResponse({ type: HealthResponse, description: 'The process answers', headers: REQUEST_ID_HEADER })
  live(): HealthResponse {
    return { status: 'ok' };
  }

  /** Readiness: the database (and Redis, when configured) answer. */
  @Get('ready')
  @ApiOperation({ operationId: 'getReadiness', summary: 'Readiness probe', security: [] })
  @ApiOkResponse({ type: HealthResponse, description: 'Every dependency answers', headers: REQUEST_ID_HEADER })
  @ApiServiceUnavailableResponse({
    type: HealthResponse,
    description: 'A dependency does not answer: `checks` names it',
    headers: REQUEST_ID_HEADER,
  })
  async ready(@Res({ passthrough: true }) response: HttpResponseLike): Promise<HealthResponse> {
    const checks = await this.health.check();
    const ok = Object.values(checks).every((state) => state === 'ok');
    if (!ok) setStatus(response, 503);
    return { status: ok ? 'ok' : 'unavailable', checks };
  }
}
