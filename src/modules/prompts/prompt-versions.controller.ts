import { Controller, Get, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { PositiveIntegerParam, UuidParam } from '../../common/http/api-schema.decorators';
import { PromptVersionResponse, VersionComparisonResponse } from '../versions/dto/version.response';
import { CompareVersionsQuery } from './dto/prompt.dto';
import { PromptResponse } from './dto/prompt.response';
import { PromptVersionsService } from './prompt-versions.service';

const NO_PROMPT = 'No prompt with this id in the tenant (or its endpoint is deleted)';
const NO_VERSION = 'No prompt with this id in the tenant, or no such version of it';

@ApiTags('prompts')
@AdminRoute()
@Controller('admin/v1/prompts/:id/versions')
export class PromptVersionsController {
  constructor(private readonly versions: PromptVersionsService) {}

  /** Every version, oldest first, including those archived by the plan's history limit. */
  @Get()
  @ApiOperation({ operationId: 'listVersions', summary: "List a prompt's versions" })
  @ApiEnvelope([PromptVersionResponse], { failures: { 400: true, 404: NO_PROMPT } })
  list(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The prompt's id") id: string,
  ): Promise<PromptVersionResponse[]> {
    return this.versions.list(principal.tenantId, id);
  }

  /** A line diff of the two versions' templates and the settings that differ. */
  @Get('compare')
  @ApiOperation({ operationId: 'compareVersions', summary: 'Compare two versions of a prompt' })
  @ApiEnvelope(VersionComparisonResponse, {
    failures: { 400: true, 404: 'No prompt with this id in the tenant, or it has no version from or to' },
  })
  compare(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The prompt's id") id: string,
    @Query() query: CompareVersionsQuery,
  ): Promise<VersionComparisonResponse> {
    return this.versions.compare(principal.tenantId, id, query.from, query.to);
  }

  @Get(':versionNumber')
  @ApiOperation({ operationId: 'getVersion', summary: 'Get one version of a prompt' })
  @ApiEnvelope(PromptVersionResponse, { failures: { 400: true, 404: NO_VERSION } })
  get(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The prompt's id") id: string,
    @PositiveIntegerParam('versionNumber') versionNumber: number,
  ): Promise<PromptVersionResponse> {
    return this.versions.get(principal.tenantId, id, versionNumber);
  }

  /** A new Draft prompt with that version's content; the original and its history are unchanged. */
  @Post(':versionNumber/restore')
  @ApiOperation({ operationId: 'restoreVersion', summary: 'Restore a version as a new Draft prompt' })
  @ApiEnvelope(PromptResponse, {
    status: 201,
    write: true,
    failures: {
      400: "The request failed validation, or the version's model is no longer in the catalog",
      404: NO_VERSION,
      409: 'A prompt of the endpoint that is not archived is already named `<name> (v<versionNumber>)`',
    },
  })
  restore(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The prompt's id") id: string,
    @PositiveIntegerParam('versionNumber') versionNumber: number,
  ): Promise<PromptResponse> {
    return this.versions.restore(principal.tenantId, id, versionNumber, principal.keyId);
  }
}
