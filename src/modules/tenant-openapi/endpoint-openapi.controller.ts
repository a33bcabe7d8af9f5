import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParam } from '../../common/http/api-schema.decorators';
import type { HttpRequestLike } from '../../common/http/http-context';
import { EndpointOpenApiResponse } from './dto/endpoint-openapi.response';
import { callerHostOf } from './http-caching';
import { TenantOpenApiService } from './tenant-openapi.service';

/** The dashboard's view of an endpoint in its tenant's OpenAPI document. */
@ApiTags('endpoints')
@AdminRoute()
@Controller('admin/v1/endpoints/:id')
export class EndpointOpenApiController {
  constructor(private readonly openApi: TenantOpenApiService) {}

  /**
   * The endpoint's operation as `GET {tenant_base_url}/api/v1/openapi.json` describes it (in a document of its own),
   * its URL on the tenant's host, and a curl command and a TypeScript program calling it with a sample body.
   */
  @Get('openapi')
  @ApiOperation({ operationId: 'getEndpointOpenApi', summary: "An endpoint's OpenAPI operation and calls to copy" })
  @ApiEnvelope(EndpointOpenApiResponse, {
    failures: { 400: true, 404: 'No endpoint with this id in the tenant (or it is deleted)' },
  })
  get(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The endpoint's id") id: string,
    @Req() request: HttpRequestLike,
  ): Promise<EndpointOpenApiResponse> {
    return this.openApi.endpointDocument(principal, callerHostOf(request), id);
  }
}
