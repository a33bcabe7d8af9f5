import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ForbiddenError } from '../errors/app-error';
import type { HttpRequestLike } from '../http/http-context';
import { principalOf } from '../http/request-context';

/**
 * Lets only admin keys through (authenticated by the pre-body check, as x-api-key or Bearer; none or a bad one has
 * already been answered 401): an endpoint key gets 403 with the surface's `refusal`.
 */
export abstract class AdminPrincipalGuard implements CanActivate {
  protected abstract readonly refusal: string;

  canActivate(context: ExecutionContext): boolean {
    const principal = principalOf(context.switchToHttp().getRequest<HttpRequestLike>());
    if (principal.type !== 'admin') throw new ForbiddenError(this.refusal);
    return true;
  }
}

/** Admin routes: an admin key; endpoint keys get 403. */
@Injectable()
export class AdminKeyGuard extends AdminPrincipalGuard {
  protected readonly refusal = 'Endpoint keys cannot use the admin API';
}
