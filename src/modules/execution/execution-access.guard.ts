import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { RateLimitedRequest } from '../../common/rate-limit/key-throttler.guard';
import { KeyAuthenticator } from '../../common/auth/api-key.guard';
import { ForbiddenError } from '../../common/errors/app-error';
import { pathOf } from '../../common/http/http-context';
import { endpointAccessRefusal } from '../endpoints/endpoint-access';
import type { EndpointDefinition } from '../endpoints/endpoint-definition';
import { EndpointsService } from '../endpoints/endpoints.service';
import { ExecutionErrors } from './execution.errors';

export type ExecutionRequest = RateLimitedRequest & {
  /** The endpoint the path resolved to, set by ExecutionAccessGuard. */
  endpointDefinition?: EndpointDefinition;
};

/**
 * Who may execute what, before any other work: the key (x-api-key; a tenant host that is
 * not the key's tenant is a 401), the endpoint at this path in the key's tenant (404 when none or soft-deleted), then
 * access: Private endpoints take admin keys only, and an endpoint key restricted by endpointIds only reaches those
 * (403). Requests refused here are not logged. Rate limits run right after this guard, before the handler.
 */
@Injectable()
export class ExecutionAccessGuard implements CanActivate {
  constructor(
    private readonly keys: KeyAuthenticator,
    private readonly endpoints: EndpointsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ExecutionRequest>();
    // The specification's execution surface takes the key in x-api-key only; Authorization is left to the caller.
    const principal = await this.keys.authenticate(request, false);
    const path = pathOf(request);
    const definition = await this.endpoints.findDefinitionByPath(principal.tenantId, path);
    if (!definition) throw ExecutionErrors.noEndpointAt(path);
    const { endpoint } = definition;
    const refusal = endpointAccessRefusal(principal, endpoint);
    if (refusal) throw new ForbiddenError(refusal);
    request.endpointDefinition = definition;
    // The endpoint's own per-key limits join the key's windows in KeyThrottlerGuard, which runs next.
    request.rateLimitEndpoint = endpoint;
    return true;
  }
}
