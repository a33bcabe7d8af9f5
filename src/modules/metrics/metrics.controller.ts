import { Controller, Get, Header, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { createHash, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../../common/errors/app-error';
import { headerOf, type HttpRequestLike, type HttpResponseLike, setHeader } from '../../common/http/http-context';
import { Metrics } from '../../common/metrics/metrics';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MetricsErrors } from './metrics.errors';

/**
 * `GET /metrics`: the Prometheus text exposition. With METRICS_TOKEN set it needs `Authorization: Bearer <token>`;
 * without, it is open (keep it off public networks). With METRICS_ENABLED=false it does not exist (404).
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  private readonly tokenDigest: Buffer | null;

  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.tokenDigest = config.metricsToken ? digest(config.metricsToken) : null;
  }

  @Get()
  @Header('Cache-Control', 'no-store')
  async scrape(
    @Req() request: HttpRequestLike,
    @Res({ passthrough: true }) response: HttpResponseLike,
  ): Promise<string> {
    if (!this.metrics.enabled) throw MetricsErrors.metricsOff();
    if (this.tokenDigest && !this.authorized(headerOf(request, 'authorization'))) {
      setHeader(response, 'WWW-Authenticate', 'Bearer');
      throw new UnauthorizedError('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    setHeader(response, 'Content-Type', this.metrics.contentType);
    return this.metrics.scrape();
  }

  /** Compared as digests in constant time: the answer does not tell how much of a guess was right. */
  private authorized(header: string | undefined): boolean {
    const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
    return match !== null && timingSafeEqual(digest(match[1]), this.tokenDigest!);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
