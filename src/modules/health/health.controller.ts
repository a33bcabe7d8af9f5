import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { type HttpResponseLike, setStatus } from '../../common/http/http-context';
import { HealthResponse } from './dto/health.response';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Liveness: the process answers. */
  @Get()
  @ApiOkResponse({ type: HealthResponse })
  live(): HealthResponse {
    return { status: 'ok' };
  }

  /** Readiness: the database (and Redis, when configured) answer. */
  @Get('ready')
  @ApiOkResponse({ type: HealthResponse })
  @ApiServiceUnavailableResponse({ type: HealthResponse })
  async ready(@Res({ passthrough: true }) response: HttpResponseLike): Promise<HealthResponse> {
    const checks = await this.health.check();
    const ok = Object.values(checks).every((state) => state === 'ok');
    if (!ok) setStatus(response, 503);
    return { status: ok ? 'ok' : 'unavailable', checks };
  }
}
