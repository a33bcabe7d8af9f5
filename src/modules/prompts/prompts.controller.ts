import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AllowReadOnly } from '../../common/auth/admin-permission.guard';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParam } from '../../common/http/api-schema.decorators';
import { CreatePromptDto, ListPromptsQuery, UpdatePromptDto, ValidateTemplateDto } from './dto/prompt.dto';
import { PromotePromptDto } from './dto/promote-prompt.dto';
import { PromotionGateStateResponse, PromptResponse, TemplateValidationResponse } from './dto/prompt.response';
import { PromptLifecycleService } from './prompt-lifecycle.service';
import { PromptsService } from './prompts.service';

const NOT_FOUND = 'No prompt with this id in the tenant (or its endpoint is deleted)';
const NO_ENDPOINT = 'No endpoint with this id in the tenant (or it is deleted)';
const NAME_TAKEN = 'Another prompt of the endpoint that is not archived has this name or its slug';

@ApiTags('prompts')
@AdminRoute()
@Controller('admin/v1/prompts')
export class PromptsController {
  constructor(
    private readonly prompts: PromptsService,
    private readonly lifecycle: PromptLifecycleService,
  ) {}

  /** The endpoint's prompts that are not archived, or only its archived ones with status=Archived. */
  @Get()
  @ApiOperation({ operationId: 'listPrompts', summary: "List an endpoint's prompts" })
  @ApiEnvelope([PromptResponse], { failures: { 400: true, 404: NO_ENDPOINT } })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListPromptsQuery): Promise<PromptResponse[]> {
    return this.prompts.list(principal.tenantId, query.endpointId, { status: query.status, search: query.search });
  }

  /** Checks a template for syntax errors and unknown variables; changes nothing, so ReadOnly keys may call it. */
  @Post('validate')
  @HttpCode(200)
  @AllowReadOnly()
  @ApiOperation({ operationId: 'validatePrompt', summary: 'Check a template' })
  @ApiEnvelope(TemplateValidationResponse, {
    failures: {
      400: 'The request failed validation, or the template is over the size limit',
      404: NO_ENDPOINT,
      413: true,
    },
  })
  validate(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: ValidateTemplateDto,
  ): Promise<TemplateValidationResponse> {
    return this.prompts.validateTemplate(principal.tenantId, dto.endpointId, dto.template);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getPrompt', summary: 'Get a prompt' })
  @ApiEnvelope(PromptResponse, { failures: { 400: true, 404: NOT_FOUND } })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<PromptResponse> {
    return this.prompts.get(principal.tenantId, id);
  }

  /** Creates a Draft prompt with its version 1. */
  @Post()
  @ApiOperation({ operationId: 'createPrompt', summary: 'Create a prompt' })
  @ApiEnvelope(PromptResponse, {
    status: 201,
    write: true,
    failures: {
      400: 'The request failed validation: also a template that is not valid Liquid, or a model not in the catalog',
      404: NO_ENDPOINT,
      409: NAME_TAKEN,
      413: true,
    },
  })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreatePromptDto): Promise<PromptResponse> {
    return this.prompts.create(principal.tenantId, dto, principal.keyId);
  }

  /** A change of the template, model or settings creates a new version. */
  @Put(':id')
  @ApiOperation({ operationId: 'updatePrompt', summary: 'Change a prompt' })
  @ApiEnvelope(PromptResponse, {
    write: true,
    failures: {
      400: 'The request failed validation: also a template that is not valid Liquid, or a model not in the catalog',
      404: NOT_FOUND,
      409: NAME_TAKEN,
      413: true,
    },
  })
  update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id') id: string,
    @Body() dto: UpdatePromptDto,
  ): Promise<PromptResponse> {
    return this.prompts.update(principal.tenantId, id, dto, principal.keyId);
  }

  /** Draft to Live. */
  @Post(':id/promote')
  @HttpCode(200)
  @ApiOperation({ operationId: 'promotePrompt', summary: 'Promote a Draft prompt to Live' })
  @ApiBody({ type: PromotePromptDto, required: false })
  @ApiEnvelope(PromptResponse, {
    write: true,
    failures: {
      400: true,
      404: NOT_FOUND,
      413: true,
      409: "The prompt is not a Draft, or the endpoint's promotion gate is not passed (a message per reason)",
    },
  })
  promote(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id') id: string,
    @Body() dto: PromotePromptDto,
  ): Promise<PromptResponse> {
    return this.lifecycle.promote(
      principal.tenantId,
      id,
      { force: dto?.force === true, reason: dto?.reason },
      principal.keyId,
    );
  }

  /** Whether a promotion of the prompt's current version would pass its endpoint's promotion gate now, and why not. */
  @Get(':id/promotion-gate')
  @ApiOperation({ operationId: 'getPromotionGateState', summary: "The promotion gate's verdict on a prompt" })
  @ApiEnvelope(PromotionGateStateResponse, { failures: { 400: true, 404: NOT_FOUND } })
  promotionGate(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id') id: string,
  ): Promise<PromotionGateStateResponse> {
    return this.lifecycle.promotionGateState(principal.tenantId, id);
  }

  /** Live to Draft; demoting the default clears the endpoint's default. */
  @Post(':id/demote')
  @HttpCode(200)
  @ApiOperation({ operationId: 'demotePrompt', summary: 'Demote a Live prompt to Draft' })
  @ApiEnvelope(PromptResponse, { write: true, failures: { 400: true, 404: NOT_FOUND, 409: 'The prompt is not Live' } })
  demote(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<PromptResponse> {
    return this.lifecycle.demote(principal.tenantId, id, principal.keyId);
  }

  /** Makes a Live prompt the endpoint's default, replacing the previous one. */
  @Post(':id/set-default')
  @HttpCode(200)
  @ApiOperation({ operationId: 'setDefaultPrompt', summary: "Make a Live prompt its endpoint's default" })
  @ApiEnvelope(PromptResponse, { write: true, failures: { 400: true, 404: NOT_FOUND, 409: 'The prompt is not Live' } })
  setDefault(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<PromptResponse> {
    return this.lifecycle.setDefault(principal.tenantId, id, principal.keyId);
  }

  /** Draft or Live to Archived (not the default). */
  @Post(':id/archive')
  @HttpCode(200)
  @ApiOperation({ operationId: 'archivePrompt', summary: 'Archive a prompt' })
  @ApiEnvelope(PromptResponse, {
    write: true,
    failures: { 400: true, 404: NOT_FOUND, 409: 'The prompt is the default or already archived' },
  })
  archive(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<PromptResponse> {
    return this.lifecycle.archive(principal.tenantId, id, principal.keyId);
  }

  /** Archived to Draft. */
  @Post(':id/unarchive')
  @HttpCode(200)
  @ApiOperation({ operationId: 'unarchivePrompt', summary: 'Unarchive a prompt as a Draft' })
  @ApiEnvelope(PromptResponse, {
    write: true,
    failures: { 400: true, 404: NOT_FOUND, 409: 'The prompt is not archived, or its name is now taken' },
  })
  unarchive(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<PromptResponse> {
    return this.lifecycle.unarchive(principal.tenantId, id, principal.keyId);
  }

  /** A clone as a new Draft named `<name> (copy)`. */
  @Post(':id/duplicate')
  @ApiOperation({ operationId: 'duplicatePrompt', summary: 'Duplicate a prompt as a new Draft' })
  @ApiEnvelope(PromptResponse, { status: 201, write: true, failures: { 400: true, 404: NOT_FOUND } })
  duplicate(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<PromptResponse> {
    return this.prompts.duplicate(principal.tenantId, id, principal.keyId);
  }
}
