import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { envelope, Envelope } from './envelope';

/**
 * Wraps every admin success in `{succeeded, messages, data}`; handlers return the bare payload. An event stream (an
 * async iterable of its text) is sent as it is.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<Envelope<unknown> | AsyncIterable<string>> {
    return next.handle().pipe(map((data: unknown) => (isEventStream(data) ? data : envelope(data ?? null))));
  }
}

function isEventStream(data: unknown): data is AsyncIterable<string> {
  return typeof data === 'object' && data !== null && Symbol.asyncIterator in data;
}
