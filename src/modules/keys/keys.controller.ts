import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParamPipe } from '../../common/http/uuid-param.pipe';
import { CreateKeyDto, UpdateKeyDto } from './dto/create-key.dto';
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

  @Get()
  @ApiEnvelope([KeyResponse])
  list(@CurrentPrincipal() principal: Principal): Promise<KeyResponse[]> {
    return this.keys.list(principal.tenantId);
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
