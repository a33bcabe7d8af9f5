import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppLogger } from '../logging/app-logger';
import { tagActiveSpanWithRequestId } from '../telemetry/trace-context';

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (a well-formed incoming X-Request-Id is kept), echoes it as X-Request-Id, and writes one
 * structured access-log line when the response finishes. Headers are never logged: they carry API keys.
 */
export class RequestIdMiddleware {
  /** `traced`: tracing is on, and the request's server span gets the id too. */
  constructor(
    private readonly logger: AppLogger,
    private readonly traced = false,
  ) {}

  use(request: IncomingMessage & { requestId?: string }, response: ServerResponse, next: () => void): void {
    // Installed once, as the HTTP adapter's request hook (ahead of routing and body parsing), by app.setup.ts.
    const incoming = request.headers['x-request-id'];
    const id = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    request.requestId = id;
    response.setHeader('X-Request-Id', id);
    if (this.traced) tagActiveSpanWithRequestId(id);
    if (!this.logger.isEnabled('info')) return next();
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const path = (request.url ?? '').split('?')[0];
      this.logger.access({
        requestId: id,
        method: request.method,
        path,
        status: response.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      });
    });
    next();
  }
}
