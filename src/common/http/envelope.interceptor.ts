import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { envelope, Envelope } from './envelope';

/** Wraps every admin success in `{succeeded, messages, data}`; handlers return the bare payload. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<Envelope<unknown>> {
    return next.handle().pipe(map((data: unknown) => envelope(data ?? null)));
  }
}
