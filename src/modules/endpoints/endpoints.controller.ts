import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParam } from '../../common/http/api-schema.decorators';
import type { HttpRequestLike, HttpResponseLike } from '../../common/http/http-context';
import { NEXT_PAGE_LINK, sendPage } from '../../common/http/paging';
import { CreateEndpointDto, DeleteEndpointQuery, ListEndpointsQuery, UpdateEndpointDto } from './dto/endpoint.dto';
import { EndpointResponse } from './dto/endpoint.response';
import { EndpointsService } from './endpoints.service';

const NOT_FOUND = 'No endpoint with this id in the tenant (or it is deleted)';
const PATH_TAKEN = 'Another endpoint of the tenant uses this path';

@ApiTags('endpoints')
@AdminRoute()
@Controller('admin/v1/endpoints')
export class EndpointsController {
  constructor(private readonly endpoints: EndpointsService) {}

  /** A page of the tenant's endpoints, oldest first; `Link: <…>; rel="next"` when another page follows. */
  @Get()
  @ApiOperation({ operationId: 'listEndpoints', summary: "List the tenant's endpoints" })
  @ApiEnvelope([EndpointResponse], { headers: NEXT_PAGE_LINK, failures: { 400: true } })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListEndpointsQuery,
    @Req() request: HttpRequestLike,
    @Res({ passthrough: true }) response: HttpResponseLike,
  ): Promise<EndpointResponse[]> {
    return sendPage(request, response, await this.endpoints.list(principal.tenantId, query));
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getEndpoint', summary: 'Get an endpoint with its fields' })
  @ApiEnvelope(EndpointResponse, { failures: { 400: true, 404: NOT_FOUND } })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<EndpointResponse> {
    return this.endpoints.get(principal.tenantId, id);
  }

  @Post()
  @ApiOperation({ operationId: 'createEndpoint', summary: 'Create an endpoint' })
  @ApiEnvelope(EndpointResponse, { status: 201, write: true, failures: { 400: true, 409: PATH_TAKEN, 413: true } })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateEndpointDto): Promise<EndpointResponse> {
    return this.endpoints.create(principal.tenantId, dto);
  }

  @Put(':id')
  @ApiOperation({ operationId: 'updateEndpoint', summary: 'Change an endpoint' })
  @ApiEnvelope(EndpointResponse, { write: true, failures: { 400: true, 404: NOT_FOUND, 409: PATH_TAKEN, 413: true } })
  update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id') id: string,
    @Body() dto: UpdateEndpointDto,
  ): Promise<EndpointResponse> {
    return this.endpoints.update(principal.tenantId, id, dto, principal.keyId);
  }

  /** Soft delete; `?permanent=true` removes the endpoint with its prompts, versions, logs and cached responses. */
  @Delete(':id')
  @ApiOperation({ operationId: 'deleteEndpoint', summary: 'Delete an endpoint (soft, or permanently)' })
  @ApiEnvelope(null, {
    write: true,
    failures: {
      400: true,
      404: 'No endpoint with this id in the tenant (without permanent=true: none that is not already deleted)',
    },
  })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id') id: string,
    @Query() query: DeleteEndpointQuery,
  ): Promise<null> {
    if (query.permanent) await this.endpoints.deletePermanently(principal.tenantId, id);
    else await this.endpoints.softDelete(principal.tenantId, id);
    return null;
  }

  @Post(':id/restore')
  @HttpCode(200)
  @ApiOperation({ operationId: 'restoreEndpoint', summary: 'Restore a soft-deleted endpoint' })
  @ApiEnvelope(EndpointResponse, {
    write: true,
    failures: {
      400: true,
      404: 'No endpoint with this id in the tenant',
      409: 'The endpoint is not deleted, or another endpoint now uses its path',
    },
  })
  restore(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<EndpointResponse> {
    return this.endpoints.restore(principal.tenantId, id);
  }
}
