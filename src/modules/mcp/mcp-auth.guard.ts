import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ForbiddenError } from '../../common/errors/app-error';
import type { HttpRequestLike } from '../../common/http/http-context';
import { principalOf } from '../../common/http/request-context';

/** An admin key (authenticated by the pre-body check, as x-api-key or Bearer; none or a bad one → 401); an endpoint key → 403. */
@Injectable()
export class McpAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const principal = principalOf(context.switchToHttp().getRequest<HttpRequestLike>());
    if (principal.type !== 'admin') throw new ForbiddenError('The MCP server needs an admin key (epa_…)');
    return true;
  }
}
