import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule, AppModuleOptions } from './app.module';
import { RequestIdMiddleware } from './common/http/request-id.middleware';
import { AppLogger } from './common/logging/app-logger';
import { setupOpenApi } from './openapi';

/**
 * Builds the application. This is the one place that knows the HTTP adapter; modules only use Nest's abstractions.
 */
export async function createApplication(options: AppModuleOptions): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(options), {
    bufferLogs: true,
    bodyParser: false,
    // A failing start rejects (main prints one line and exits 1) instead of Nest's default process.abort().
    abortOnError: false,
  });
  app.useLogger(app.get(AppLogger));
  // Registered ahead of the body parser, so the answers it refuses (413, malformed JSON) carry X-Request-Id too.
  const requestIds = new RequestIdMiddleware(app.get(AppLogger));
  app.use(requestIds.use.bind(requestIds));
  // decisions.md §5: bodies above MAX_BODY_BYTES answer 413.
  app.useBodyParser('json', { limit: options.config.maxBodyBytes });
  setupOpenApi(app);
  return app;
}
