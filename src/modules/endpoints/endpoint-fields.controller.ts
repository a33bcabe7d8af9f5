import { Body, Controller, Delete, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParamPipe } from '../../common/http/uuid-param.pipe';
import { InputFieldResponse, OutputFieldResponse } from './dto/endpoint.response';
import { CreateInputFieldDto, CreateOutputFieldDto, UpdateInputFieldDto, UpdateOutputFieldDto } from './dto/field.dto';
import { EndpointFieldsService } from './endpoint-fields.service';

@ApiTags('endpoints')
@AdminRoute()
@Controller('admin/v1/endpoints/:id')
export class EndpointFieldsController {
  constructor(private readonly fields: EndpointFieldsService) {}

  @Post('input-fields')
  @ApiEnvelope(InputFieldResponse, { status: 201 })
  addInput(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Body() dto: CreateInputFieldDto,
  ): Promise<InputFieldResponse> {
    return this.fields.addInput(principal.tenantId, id, dto);
  }

  @Put('input-fields/:fieldId')
  @ApiEnvelope(InputFieldResponse)
  updateInput(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Param('fieldId', UuidParamPipe) fieldId: string,
    @Body() dto: UpdateInputFieldDto,
  ): Promise<InputFieldResponse> {
    return this.fields.updateInput(principal.tenantId, id, fieldId, dto);
  }

  @Delete('input-fields/:fieldId')
  @ApiEnvelope(null)
  async deleteInput(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Param('fieldId', UuidParamPipe) fieldId: string,
  ): Promise<null> {
    await this.fields.deleteInput(principal.tenantId, id, fieldId);
    return null;
  }

  @Post('output-fields')
  @ApiEnvelope(OutputFieldResponse, { status: 201 })
  addOutput(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Body() dto: CreateOutputFieldDto,
  ): Promise<OutputFieldResponse> {
    return this.fields.addOutput(principal.tenantId, id, dto);
  }

  @Put('output-fields/:fieldId')
  @ApiEnvelope(OutputFieldResponse)
  updateOutput(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Param('fieldId', UuidParamPipe) fieldId: string,
    @Body() dto: UpdateOutputFieldDto,
  ): Promise<OutputFieldResponse> {
    return this.fields.updateOutput(principal.tenantId, id, fieldId, dto);
  }

  @Delete('output-fields/:fieldId')
  @ApiEnvelope(null)
  async deleteOutput(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Param('fieldId', UuidParamPipe) fieldId: string,
  ): Promise<null> {
    await this.fields.deleteOutput(principal.tenantId, id, fieldId);
    return null;
  }
}
