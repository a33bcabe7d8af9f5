import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import type { HttpRequestLike, HttpResponseLike } from '../../common/http/http-context';
import { NEXT_PAGE_LINK, sendPage } from '../../common/http/paging';
import { UuidParamPipe } from '../../common/http/uuid-param.pipe';
import { CreateEndpointDto, DeleteEndpointQuery, ListEndpointsQuery, UpdateEndpointDto } from './dto/endpoint.dto';
import { EndpointResponse } from './dto/endpoint.response';
import { EndpointsService } from './endpoints.service';

@ApiTags('endpoints')
@AdminRoute()
@Controller('admin/v1/endpoints')
export class EndpointsController {
  constructor(private readonly endpoints: EndpointsService) {}

  /** A page of the tenant's endpoints, oldest first; `Link: <…>; rel="next"` when another page follows. */
  @Get()
  @ApiEnvelope([EndpointResponse], { headers: NEXT_PAGE_LINK })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListEndpointsQuery,
    @Req() request: HttpRequestLike,
    @Res({ passthrough: true }) response: HttpResponseLike,
  ): Promise<EndpointResponse[]> {
    return sendPage(request, response, await this.endpoints.list(principal.tenantId, query));
  }

  @Get(':id')
  @ApiEnvelope(EndpointResponse)
  get(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<EndpointResponse> {
    return this.endpoints.get(principal.tenantId, id);
  }

  @Post()
  @ApiEnvelope(EndpointResponse, { status: 201 })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateEndpointDto): Promise<EndpointResponse> {
    return this.endpoints.create(principal.tenantId, dto);
  }

  @Put(':id')
  @ApiEnvelope(EndpointResponse)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Body() dto: UpdateEndpointDto,
  ): Promise<EndpointResponse> {
    return this.endpoints.update(principal.tenantId, id, dto);
  }

  /** Soft delete; `?permanent=true` removes the endpoint with its prompts, versions, logs and cached responses. */
  @Delete(':id')
  @ApiEnvelope(null)
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Query() query: DeleteEndpointQuery,
  ): Promise<null> {
    if (query.permanent) await this.endpoints.deletePermanently(principal.tenantId, id);
    else await this.endpoints.softDelete(principal.tenantId, id);
    return null;
  }

  @Post(':id/restore')
  @HttpCode(200)
  @ApiEnvelope(EndpointResponse)
  restore(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<EndpointResponse> {
    return this.endpoints.restore(principal.tenantId, id);
  }
}
