import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { AuthenticationThrottledError, UnauthorizedError } from '../errors/app-error';
import { headerOf, HttpRequestLike, nodeRequestOf } from '../http/http-context';
import { AuthFailures, clientAddressOf, TrustedProxies } from './auth-failures';
import { presentedKey, tenantOfHost } from './presented-key';
import { ApiKeyAuthenticator, Principal } from './principal';

/**
 * Resolves the presented key to a principal and checks the Host: a malformed Host is a 400, and a tenant host that
 * is not the key's tenant a 401. Called once per request, by the pre-body check of the admin, execution and MCP
 * surfaces, which puts the principal in the request's context for the guards.
 *
 * Each 401 counts against the client's address (its TCP peer's, or behind a proxy of TRUSTED_PROXIES the one its
 * X-Forwarded-For names). An address with more than AUTH_FAILURES_PER_MINUTE failures in its minute gets 429 with
 * Retry-After until the minute ends, and its keys are then checked against this instance's memory only (no database
 * lookup): a key in use here recently still passes, anything else is refused without costing a query.
 */
@Injectable()
export class KeyAuthenticator {
  private readonly failures: AuthFailures;
  private readonly proxies: TrustedProxies;

  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.failures = new AuthFailures(config.authFailuresPerMinute);
    this.proxies = new TrustedProxies(config.trustedProxies);
  }

  async authenticate(request: HttpRequestLike, acceptBearer: boolean): Promise<Principal> {
    const node = nodeRequestOf(request);
    const hostTenant = tenantOfHost(headerOf(request, 'host'), this.config.baseDomain);
    const rawKey = presentedKey(request, acceptBearer);
    const address = clientAddressOf(node.socket?.remoteAddress ?? '', node.headers['x-forwarded-for'], this.proxies);
    const retryAfter = this.failures.retryAfterSeconds(address);
    return retryAfter > 0
      ? this.knownOrThrottled(rawKey, hostTenant, retryAfter)
      : this.lookUp(rawKey, hostTenant, address);
  }

  private async lookUp(rawKey: string | undefined, hostTenant: string | null, address: string): Promise<Principal> {
    const refuse = (message: string) => {
      this.failures.record(address);
      return new UnauthorizedError(message);
    };
    if (!rawKey) throw refuse('An API key is required (x-api-key header)');
    const principal = await this.authenticator.authenticate(rawKey);
    if (!principal) throw refuse('The API key is invalid or revoked');
    // A Host of the form <part>.<BASE_DOMAIN> names a tenant: only that tenant's keys are accepted there.
    if (!belongsToHost(principal, hostTenant)) throw refuse('The API key does not belong to this tenant');
    return principal;
  }

  private knownOrThrottled(rawKey: string | undefined, hostTenant: string | null, retryAfter: number): Principal {
    const principal = rawKey ? this.authenticator.knownPrincipal(rawKey) : null;
    if (principal && belongsToHost(principal, hostTenant)) return principal;
    throw new AuthenticationThrottledError(
      `Too many failed authentications from this address: retry in ${retryAfter} seconds`,
      retryAfter,
    );
  }
}

function belongsToHost(principal: Principal, hostTenant: string | null): boolean {
  return hostTenant === null || hostTenant === principal.tenantSlug;
}
