import { Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { PositiveIntegerParamPipe } from '../../common/http/integer-bounds';
import { UuidParamPipe } from '../../common/http/uuid-param.pipe';
import { PromptVersionResponse, VersionComparisonResponse } from '../versions/dto/version.response';
import { CompareVersionsQuery } from './dto/prompt.dto';
import { PromptResponse } from './dto/prompt.response';
import { PromptVersionsService } from './prompt-versions.service';

@ApiTags('prompts')
@AdminRoute()
@Controller('admin/v1/prompts/:id/versions')
export class PromptVersionsController {
  constructor(private readonly versions: PromptVersionsService) {}

  /** Every version, oldest first, including those archived by the plan's history limit. */
  @Get()
  @ApiEnvelope([PromptVersionResponse])
  list(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<PromptVersionResponse[]> {
    return this.versions.list(principal.tenantId, id);
  }

  /** A line diff of the two versions' templates and the settings that differ. */
  @Get('compare')
  @ApiEnvelope(VersionComparisonResponse)
  compare(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Query() query: CompareVersionsQuery,
  ): Promise<VersionComparisonResponse> {
    return this.versions.compare(principal.tenantId, id, query.from, query.to);
  }

  @Get(':versionNumber')
  @ApiEnvelope(PromptVersionResponse)
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Param('versionNumber', PositiveIntegerParamPipe) versionNumber: number,
  ): Promise<PromptVersionResponse> {
    return this.versions.get(principal.tenantId, id, versionNumber);
  }

  /** A new Draft prompt with that version's content; the original and its history are unchanged. */
  @Post(':versionNumber/restore')
  @ApiEnvelope(PromptResponse, { status: 201 })
  restore(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Param('versionNumber', PositiveIntegerParamPipe) versionNumber: number,
  ): Promise<PromptResponse> {
    return this.versions.restore(principal.tenantId, id, versionNumber);
  }
}
