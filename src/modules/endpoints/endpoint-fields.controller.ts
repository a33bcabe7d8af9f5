import { Body, Controller, Delete, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParam } from '../../common/http/api-schema.decorators';
import { InputFieldResponse, OutputFieldResponse } from './dto/endpoint.response';
import { CreateInputFieldDto, CreateOutputFieldDto, UpdateInputFieldDto, UpdateOutputFieldDto } from './dto/field.dto';
import { EndpointFieldsService } from './endpoint-fields.service';

const NO_ENDPOINT = 'No endpoint with this id in the tenant (or it is deleted)';
const NO_FIELD = 'No endpoint with this id in the tenant, or no such field on it';
const NAME_TAKEN = 'The endpoint has another field of this kind with this name';

@ApiTags('endpoints')
@AdminRoute()
@Controller('admin/v1/endpoints/:id')
export class EndpointFieldsController {
  constructor(private readonly fields: EndpointFieldsService) {}

  @Post('input-fields')
  @ApiOperation({ operationId: 'addInputField', summary: 'Add an input field to an endpoint' })
  @ApiEnvelope(InputFieldResponse, {
    status: 201,
    write: true,
    failures: { 400: true, 404: NO_ENDPOINT, 409: NAME_TAKEN, 413: true },
  })
  addInput(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The endpoint's id") id: string,
    @Body() dto: CreateInputFieldDto,
  ): Promise<InputFieldResponse> {
    return this.fields.addInput(principal.tenantId, id, dto);
  }

  @Put('input-fields/:fieldId')
  @ApiOperation({ operationId: 'updateInputField', summary: 'Change an input field' })
  @ApiEnvelope(InputFieldResponse, { write: true, failures: { 400: true, 404: NO_FIELD, 409: NAME_TAKEN, 413: true } })
  updateInput(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The endpoint's id") id: string,
    @UuidParam('fieldId') fieldId: string,
    @Body() dto: UpdateInputFieldDto,
  ): Promise<InputFieldResponse> {
    return this.fields.updateInput(principal.tenantId, id, fieldId, dto);
  }

  @Delete('input-fields/:fieldId')
  @ApiOperation({ operationId: 'deleteInputField', summary: 'Remove an input field' })
  @ApiEnvelope(null, { write: true, failures: { 400: true, 404: NO_FIELD } })
  async deleteInput(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The endpoint's id") id: string,
    @UuidParam('fieldId') fieldId: string,
  ): Promise<null> {
    await this.fields.deleteInput(principal.tenantId, id, fieldId);
    return null;
  }

  @Post('output-fields')
  @ApiOperation({ operationId: 'addOutputField', summary: 'Add an output field to an endpoint' })
  @ApiEnvelope(OutputFieldResponse, {
    status: 201,
    write: true,
    failures: { 400: true, 404: NO_ENDPOINT, 409: NAME_TAKEN, 413: true },
  })
  addOutput(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The endpoint's id") id: string,
    @Body() dto: CreateOutputFieldDto,
  ): Promise<OutputFieldResponse> {
    return this.fields.addOutput(principal.tenantId, id, dto);
  }

  @Put('output-fields/:fieldId')
  @ApiOperation({ operationId: 'updateOutputField', summary: 'Change an output field' })
  @ApiEnvelope(OutputFieldResponse, { write: true, failures: { 400: true, 404: NO_FIELD, 409: NAME_TAKEN, 413: true } })
  updateOutput(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The endpoint's id") id: string,
    @UuidParam('fieldId') fieldId: string,
    @Body() dto: UpdateOutputFieldDto,
  ): Promise<OutputFieldResponse> {
    return this.fields.updateOutput(principal.tenantId, id, fieldId, dto);
  }

  @Delete('output-fields/:fieldId')
  @ApiOperation({ operationId: 'deleteOutputField', summary: 'Remove an output field' })
  @ApiEnvelope(null, { write: true, failures: { 400: true, 404: NO_FIELD } })
  async deleteOutput(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The endpoint's id") id: string,
    @UuidParam('fieldId') fieldId: string,
  ): Promise<null> {
    await this.fields.deleteOutput(principal.tenantId, id, fieldId);
    return null;
  }
}
