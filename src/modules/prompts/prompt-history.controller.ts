import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParam } from '../../common/http/api-schema.decorators';
import { ListPromptEventsQuery } from './dto/prompt-event.dto';
import { PromptEventPageResponse } from './dto/prompt-event.response';
import { PromptHistoryService } from './prompt-history.service';

/** What happened to a prompt, or to an endpoint's prompts and split: reads, which ReadOnly keys may use. */
@ApiTags('prompts')
@AdminRoute()
@Controller('admin/v1')
export class PromptHistoryController {
  constructor(private readonly history: PromptHistoryService) {}

  /** A page of the prompt's events, newest first. */
  @Get('prompts/:id/events')
  @ApiOperation({ operationId: 'listPromptEvents', summary: "List a prompt's events" })
  @ApiEnvelope(PromptEventPageResponse, {
    failures: { 400: true, 404: 'No prompt with this id in the tenant (or its endpoint is deleted)' },
  })
  ofPrompt(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The prompt's id") id: string,
    @Query() query: ListPromptEventsQuery,
  ): Promise<PromptEventPageResponse> {
    return this.history.ofPrompt(principal.tenantId, id, query);
  }

  /** A page of the events of the endpoint's prompts and of its traffic split, newest first. */
  @Get('endpoints/:id/events')
  @ApiOperation({ operationId: 'listEndpointEvents', summary: "List an endpoint's prompt events" })
  @ApiEnvelope(PromptEventPageResponse, {
    failures: { 400: true, 404: 'No endpoint with this id in the tenant (or it is deleted)' },
  })
  ofEndpoint(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The endpoint's id") id: string,
    @Query() query: ListPromptEventsQuery,
  ): Promise<PromptEventPageResponse> {
    return this.history.ofEndpoint(principal.tenantId, id, query);
  }
}
