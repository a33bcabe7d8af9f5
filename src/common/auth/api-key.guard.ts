import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ForbiddenError, UnauthorizedError } from '../errors/app-error';
import { headerOf, HttpRequestLike } from '../http/http-context';
import { presentedKey, tenantOfHost } from './presented-key';
import { ApiKeyAuthenticator, Principal } from './principal';

export type AuthenticatedRequest = HttpRequestLike & { principal?: Principal };

/**
 * Resolves the presented key to a principal and checks the host's tenant (decisions.md §1: a tenant host that is not
 * the key's tenant gets 401). Shared by the admin and execution surfaces.
 */
@Injectable()
export class KeyAuthenticator {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async authenticate(request: AuthenticatedRequest, acceptBearer: boolean): Promise<Principal> {
    const rawKey = presentedKey(request, acceptBearer);
    if (!rawKey) throw new UnauthorizedError('An API key is required (x-api-key header)');
    const principal = await this.authenticator.authenticate(rawKey);
    if (!principal) throw new UnauthorizedError('The API key is invalid or revoked');
    const hostTenant = tenantOfHost(headerOf(request, 'host'), this.config.baseDomain);
    if (hostTenant !== null && hostTenant !== principal.tenantSlug) {
      throw new UnauthorizedError('The API key does not belong to this tenant');
    }
    request.principal = principal;
    return principal;
  }
}

/** Admin routes: an admin key, presented as x-api-key or Bearer; endpoint keys get 403 (decisions.md §4). */
@Injectable()
export class AdminKeyGuard implements CanActivate {
  constructor(private readonly keys: KeyAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const principal = await this.keys.authenticate(context.switchToHttp().getRequest<AuthenticatedRequest>(), true);
    if (principal.type !== 'admin') throw new ForbiddenError('Endpoint keys cannot use the admin API');
    return true;
  }
}
