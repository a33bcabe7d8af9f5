import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { HttpRequestLike } from '../http/http-context';
import { requestContextOf } from '../http/request-context';

/**
 * Any key of the tenant, in x-api-key (as on the execution API), checked by the pre-body check (a tenant host that is
 * not the key's tenant is a 401): the route runs only for an authenticated request; what the key may do there is the
 * route's own rule.
 */
@Injectable()
export class AuthenticatedKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return requestContextOf(context.switchToHttp().getRequest<HttpRequestLike>()).isAuthenticated;
  }
}
