import { Body, Controller, Get, HttpCode, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParam } from '../../common/http/api-schema.decorators';
import type { HttpRequestLike, HttpResponseLike } from '../../common/http/http-context';
import { NEXT_PAGE_LINK, sendPage } from '../../common/http/paging';
import { CreateKeyDto, UpdateKeyDto } from './dto/create-key.dto';
import { ListKeysQuery } from './dto/list-keys.dto';
import { CreatedKeyResponse, KeyResponse } from './dto/key.response';
import { KeysService } from './keys.service';

const NOT_FOUND = 'No key with this id in the tenant';

@ApiTags('keys')
@AdminRoute()
@Controller('admin/v1/keys')
export class KeysController {
  constructor(private readonly keys: KeysService) {}

  /** The answer holds the key's full value, once: it cannot be read again. */
  @Post()
  @ApiOperation({ operationId: 'createKey', summary: 'Create an API key' })
  @ApiEnvelope(CreatedKeyResponse, { status: 201, write: true, failures: { 400: true, 413: true } })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateKeyDto): Promise<CreatedKeyResponse> {
    return this.keys.create(principal.tenantId, dto);
  }

  /** A page of the tenant's keys, oldest first; `Link: <…>; rel="next"` when another page follows. */
  @Get()
  @ApiOperation({ operationId: 'listKeys', summary: "List the tenant's keys" })
  @ApiEnvelope([KeyResponse], { headers: NEXT_PAGE_LINK, failures: { 400: true } })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListKeysQuery,
    @Req() request: HttpRequestLike,
    @Res({ passthrough: true }) response: HttpResponseLike,
  ): Promise<KeyResponse[]> {
    return sendPage(request, response, await this.keys.list(principal.tenantId, query));
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getKey', summary: 'Get a key' })
  @ApiEnvelope(KeyResponse, { failures: { 400: true, 404: NOT_FOUND } })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<KeyResponse> {
    return this.keys.get(principal.tenantId, id);
  }

  @Put(':id')
  @ApiOperation({ operationId: 'updateKey', summary: "Change a key's name, endpoints or limits" })
  @ApiEnvelope(KeyResponse, { write: true, failures: { 400: true, 404: NOT_FOUND, 413: true } })
  update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id') id: string,
    @Body() dto: UpdateKeyDto,
  ): Promise<KeyResponse> {
    return this.keys.update(principal.tenantId, id, dto);
  }

  /** The key is refused from its next request on, on every instance. */
  @Post(':id/revoke')
  @HttpCode(200)
  @ApiOperation({ operationId: 'revokeKey', summary: 'Revoke a key' })
  @ApiEnvelope(KeyResponse, { write: true, failures: { 400: true, 404: NOT_FOUND } })
  revoke(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<KeyResponse> {
    return this.keys.revoke(principal.tenantId, id);
  }
}
