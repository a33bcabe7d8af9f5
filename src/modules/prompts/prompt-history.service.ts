import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../../common/http/paging';
import { EndpointsService } from '../endpoints/endpoints.service';
import { KeysService } from '../keys/keys.service';
import type { PromptEventPage } from '../prompt-events/prompt-events.service';
import { PromptEventsService } from '../prompt-events/prompt-events.service';
import { type PromptEventPageResponse, toPromptEventResponse } from './dto/prompt-event.response';
import { PromptsService } from './prompts.service';

/**
 * The history routes: a prompt's events and an endpoint's, after the same checks as their other routes (another
 * tenant's prompt or endpoint, or a soft-deleted endpoint's, is a 404). Each event names the key that made the change
 * as it is named now, read from the keys module when listing.
 */
@Injectable()
export class PromptHistoryService {
  constructor(
    private readonly prompts: PromptsService,
    private readonly endpoints: EndpointsService,
    private readonly events: PromptEventsService,
    private readonly keys: KeysService,
  ) {}

  async ofPrompt(tenantId: string, promptId: string, request: PageRequest): Promise<PromptEventPageResponse> {
    const { prompt } = await this.prompts.require(tenantId, promptId);
    return this.withKeyNames(tenantId, await this.events.page(tenantId, { promptId: prompt.id }, request));
  }

  /** Every event of the endpoint's prompts (archived ones included) and of the endpoint's split. */
  async ofEndpoint(tenantId: string, endpointId: string, request: PageRequest): Promise<PromptEventPageResponse> {
    const endpoint = await this.endpoints.requireActive(tenantId, endpointId);
    return this.withKeyNames(tenantId, await this.events.page(tenantId, { endpointId: endpoint.id }, request));
  }

  private async withKeyNames(tenantId: string, page: PromptEventPage): Promise<PromptEventPageResponse> {
    const names = await this.keys.namesOf(
      tenantId,
      page.rows.flatMap((event) => (event.keyId ? [event.keyId] : [])),
    );
    return {
      items: page.rows.map((event) => toPromptEventResponse(event, (event.keyId && names.get(event.keyId)) || null)),
      page: page.page,
      pageSize: page.pageSize,
      total: page.total,
      totalIsExact: page.totalIsExact,
    };
  }
}
