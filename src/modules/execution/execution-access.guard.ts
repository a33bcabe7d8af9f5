import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ForbiddenError } from '../../common/errors/app-error';
import { type HttpRequestLike, pathOf } from '../../common/http/http-context';
import { requestContextOf } from '../../common/http/request-context';
import { endpointAccessRefusal } from '../endpoints/endpoint-access';
import type { EndpointDefinition } from '../endpoints/endpoint-definition';
import { EndpointsService } from '../endpoints/endpoints.service';
import { ExecutionErrors } from './execution.errors';

export type ExecutionRequest = HttpRequestLike & {
  /** The endpoint the path resolved to, set by ExecutionAccessGuard. */
  endpointDefinition?: EndpointDefinition;
};

/**
 * Who may execute what, before any other work: the key (x-api-key, authenticated by the pre-body check; a tenant host
 * that is not the key's tenant is a 401), the endpoint at this path in the key's tenant (404 when none or soft-deleted), then
 * access: Private endpoints take admin keys only, and an endpoint key restricted by endpointIds only reaches those
 * (403). Requests refused here are not logged. Rate limits run right after this guard, before the handler.
 */
@Injectable()
export class ExecutionAccessGuard implements CanActivate {
  constructor(private readonly endpoints: EndpointsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ExecutionRequest>();
    const requestContext = requestContextOf(request);
    const { principal } = requestContext;
    const path = pathOf(request);
    const definition = await this.endpoints.findDefinitionByPath(principal.tenantId, path);
    if (!definition) throw ExecutionErrors.noEndpointAt(path);
    const { endpoint } = definition;
    const refusal = endpointAccessRefusal(principal, endpoint);
    if (refusal) throw new ForbiddenError(refusal);
    request.endpointDefinition = definition;
    // The endpoint's own per-key limits join the key's windows in KeyThrottlerGuard, which runs next.
    requestContext.executionTarget = endpoint;
    return true;
  }
}
