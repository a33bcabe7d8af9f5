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

  /** Readiness: the database answers and the service is not stopping; Redis down is reported, as degraded. */
  @Get('ready')
  @ApiOperation({ operationId: 'getReadiness', summary: 'Readiness probe', security: [] })
  @ApiOkResponse({
    type: HealthResponse,
    description: 'Ready: `ok`, or `degraded` when Redis does not answer (`checks` says so)',
    headers: REQUEST_ID_HEADER,
  })
  @ApiServiceUnavailableResponse({
    type: HealthResponse,
    description:
      'Not ready: the database does not answer (`unavailable`), or the service is shutting down (`stopping`)',
    headers: REQUEST_ID_HEADER,
  })
  async ready(@Res({ passthrough: true }) response: HttpResponseLike): Promise<HealthResponse> {
    const readiness = await this.health.readiness();
    if (readiness.status !== 'ok' && readiness.status !== 'degraded') setStatus(response, 503);
    return readiness;
  }
}
