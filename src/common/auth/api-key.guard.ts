import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ForbiddenError, UnauthorizedError } from '../errors/app-error';
import { headerOf, HttpRequestLike } from '../http/http-context';
import { presentedKey, tenantOfHost } from './presented-key';
import { ApiKeyAuthenticator, Principal } from './principal';

export type AuthenticatedRequest = HttpRequestLike & { principal?: Principal };

/** What a request authenticated as, kept per underlying Node request (the adapter's wrapper may differ). */
const authenticated = new WeakMap<object, { acceptBearer: boolean; principal: Principal }>();

/**
 * Resolves the presented key to a principal and checks the Host: a malformed Host is a 400, and a tenant host that
 * is not the key's tenant a 401. Shared by the admin, execution and MCP surfaces. The pre-body hook authenticates
 * first; the guards then get the principal it found instead of looking the key up again.
 */
@Injectable()
export class KeyAuthenticator {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async authenticate(request: AuthenticatedRequest, acceptBearer: boolean): Promise<Principal> {
    const node = request.raw ?? request;
    const earlier = authenticated.get(node);
    if (earlier?.acceptBearer === acceptBearer) {
      request.principal = earlier.principal;
      return earlier.principal;
    }
    const hostTenant = tenantOfHost(headerOf(request, 'host'), this.config.baseDomain);
    const rawKey = presentedKey(request, acceptBearer);
    if (!rawKey) throw new UnauthorizedError('An API key is required (x-api-key header)');
    const principal = await this.authenticator.authenticate(rawKey);
    if (!principal) throw new UnauthorizedError('The API key is invalid or revoked');
    // A Host of the form <part>.<BASE_DOMAIN> names a tenant: only that tenant's keys are accepted there.
    if (hostTenant !== null && hostTenant !== principal.tenantSlug) {
      throw new UnauthorizedError('The API key does not belong to this tenant');
    }
    authenticated.set(node, { acceptBearer, principal });
    request.principal = principal;
    return principal;
  }
}

/** Admin routes: an admin key, presented as x-api-key or Bearer; endpoint keys get 403. */
@Injectable()
export class AdminKeyGuard implements CanActivate {
  constructor(private readonly keys: KeyAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const principal = await this.keys.authenticate(context.switchToHttp().getRequest<AuthenticatedRequest>(), true);
    if (principal.type !== 'admin') throw new ForbiddenError('Endpoint keys cannot use the admin API');
    return true;
  }
}
