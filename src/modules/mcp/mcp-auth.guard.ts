import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { KeyAuthenticator, type AuthenticatedRequest } from '../../common/auth/api-key.guard';
import { ForbiddenError } from '../../common/errors/app-error';

/** An admin key as a Bearer token; none or a bad one → 401, an endpoint key → 403. */
@Injectable()
export class McpAuthGuard implements CanActivate {
  constructor(private readonly keys: KeyAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const principal = await this.keys.authenticate(context.switchToHttp().getRequest<AuthenticatedRequest>(), true);
    if (principal.type !== 'admin') throw new ForbiddenError('The MCP server needs an admin key (epa_…)');
    return true;
  }
}
