import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { envelope, Envelope } from './envelope';
import { nodeResponseOf } from './http-context';

/**
 * Wraps every admin success in `{succeeded, messages, data}`; handlers return the bare payload. An answer the handler
 * wrote to the connection itself (an event stream written straight to it) is left alone.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<Envelope<unknown> | undefined> {
    return next.handle().pipe(
      map((data: unknown) => {
        if (data === undefined && nodeResponseOf(context.switchToHttp().getResponse()).headersSent) return data;
        return envelope(data ?? null);
      }),
    );
  }
}
