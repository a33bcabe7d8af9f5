import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import type { HttpRequestLike, HttpResponseLike } from '../../common/http/http-context';
import { NEXT_PAGE_LINK, sendPage } from '../../common/http/paging';
import { UuidParamPipe } from '../../common/http/uuid-param.pipe';
import { CreateKeyDto, UpdateKeyDto } from './dto/create-key.dto';
import { ListKeysQuery } from './dto/list-keys.dto';
import { CreatedKeyResponse, KeyResponse } from './dto/key.response';
import { KeysService } from './keys.service';

@ApiTags('keys')
@AdminRoute()
@Controller('admin/v1/keys')
export class KeysController {
  constructor(private readonly keys: KeysService) {}

  @Post()
  @ApiEnvelope(CreatedKeyResponse, { status: 201 })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateKeyDto): Promise<CreatedKeyResponse> {
    return this.keys.create(principal.tenantId, dto);
  }

  /** A page of the tenant's keys, oldest first; `Link: <…>; rel="next"` when another page follows. */
  @Get()
  @ApiEnvelope([KeyResponse], { headers: NEXT_PAGE_LINK })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListKeysQuery,
    @Req() request: HttpRequestLike,
    @Res({ passthrough: true }) response: HttpResponseLike,
  ): Promise<KeyResponse[]> {
    return sendPage(request, response, await this.keys.list(principal.tenantId, query));
  }

  @Get(':id')
  @ApiEnvelope(KeyResponse)
  get(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<KeyResponse> {
    return this.keys.get(principal.tenantId, id);
  }

  @Put(':id')
  @ApiEnvelope(KeyResponse)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Body() dto: UpdateKeyDto,
  ): Promise<KeyResponse> {
    return this.keys.update(principal.tenantId, id, dto);
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @ApiEnvelope(KeyResponse)
  revoke(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<KeyResponse> {
    return this.keys.revoke(principal.tenantId, id);
  }
}
