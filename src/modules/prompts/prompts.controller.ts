import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AllowReadOnly } from '../../common/auth/admin-permission.guard';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParamPipe } from '../../common/http/uuid-param.pipe';
import { CreatePromptDto, ListPromptsQuery, UpdatePromptDto, ValidateTemplateDto } from './dto/prompt.dto';
import { PromptResponse, TemplateValidationResponse } from './dto/prompt.response';
import { PromptLifecycleService } from './prompt-lifecycle.service';
import { PromptsService } from './prompts.service';

@ApiTags('prompts')
@AdminRoute()
@Controller('admin/v1/prompts')
export class PromptsController {
  constructor(
    private readonly prompts: PromptsService,
    private readonly lifecycle: PromptLifecycleService,
  ) {}

  @Get()
  @ApiEnvelope([PromptResponse])
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListPromptsQuery): Promise<PromptResponse[]> {
    return this.prompts.list(principal.tenantId, query.endpointId, { status: query.status, search: query.search });
  }

  /** Checks a template for syntax errors and unknown variables; changes nothing, so ReadOnly keys may call it. */
  @Post('validate')
  @HttpCode(200)
  @AllowReadOnly()
  @ApiEnvelope(TemplateValidationResponse)
  validate(@CurrentPrincipal() principal: Principal, @Body() dto: ValidateTemplateDto): Promise<TemplateValidationResponse> {
    return this.prompts.validateTemplate(principal.tenantId, dto.endpointId, dto.template);
  }

  @Get(':id')
  @ApiEnvelope(PromptResponse)
  get(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<PromptResponse> {
    return this.prompts.get(principal.tenantId, id);
  }

  /** Creates a Draft prompt with its version 1. */
  @Post()
  @ApiEnvelope(PromptResponse, { status: 201 })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreatePromptDto): Promise<PromptResponse> {
    return this.prompts.create(principal.tenantId, dto);
  }

  /** A change of the template, model or settings creates a new version. */
  @Put(':id')
  @ApiEnvelope(PromptResponse)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Body() dto: UpdatePromptDto,
  ): Promise<PromptResponse> {
    return this.prompts.update(principal.tenantId, id, dto);
  }

  /** Draft to Live. */
  @Post(':id/promote')
  @HttpCode(200)
  @ApiEnvelope(PromptResponse)
  promote(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<PromptResponse> {
    return this.lifecycle.promote(principal.tenantId, id);
  }

  /** Live to Draft; demoting the default clears the endpoint's default. */
  @Post(':id/demote')
  @HttpCode(200)
  @ApiEnvelope(PromptResponse)
  demote(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<PromptResponse> {
    return this.lifecycle.demote(principal.tenantId, id);
  }

  /** Makes a Live prompt the endpoint's default, replacing the previous one. */
  @Post(':id/set-default')
  @HttpCode(200)
  @ApiEnvelope(PromptResponse)
  setDefault(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<PromptResponse> {
    return this.lifecycle.setDefault(principal.tenantId, id);
  }

  /** Draft or Live to Archived (not the default). */
  @Post(':id/archive')
  @HttpCode(200)
  @ApiEnvelope(PromptResponse)
  archive(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<PromptResponse> {
    return this.lifecycle.archive(principal.tenantId, id);
  }

  /** Archived to Draft. */
  @Post(':id/unarchive')
  @HttpCode(200)
  @ApiEnvelope(PromptResponse)
  unarchive(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<PromptResponse> {
    return this.lifecycle.unarchive(principal.tenantId, id);
  }

  /** A clone as a new Draft named `<name> (copy)`. */
  @Post(':id/duplicate')
  @ApiEnvelope(PromptResponse, { status: 201 })
  duplicate(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<PromptResponse> {
    return this.prompts.duplicate(principal.tenantId, id);
  }
}
