import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { HttpRequestLike } from '../../common/http/http-context';
import { requestContextOf } from '../../common/http/request-context';

/**
 * Any key of the tenant, in x-api-key (as on the execution API), checked by the pre-body check (a tenant host that is
 * not the key's tenant is a 401): the route runs only for an authenticated request.
 */
@Injectable()
export class DocumentKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return requestContextOf(context.switchToHttp().getRequest<HttpRequestLike>()).isAuthenticated;
  }
}
