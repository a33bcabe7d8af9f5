import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ForbiddenError } from '../errors/app-error';
import type { HttpRequestLike } from '../http/http-context';
import { principalOf } from '../http/request-context';

/** Admin routes: an admin key (authenticated by the pre-body check, as x-api-key or Bearer); endpoint keys get 403. */
@Injectable()
export class AdminKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const principal = principalOf(context.switchToHttp().getRequest<HttpRequestLike>());
    if (principal.type !== 'admin') throw new ForbiddenError('Endpoint keys cannot use the admin API');
    return true;
  }
}
