import { Injectable } from '@nestjs/common';
import { type SplitPrompt, SplitPrompts } from '../endpoints/split-prompts';
import { PromptsRepository } from './prompts.repository';

/** The prompts a traffic split may list, for the endpoints module's check (it cannot read this module's table). */
@Injectable()
export class SplitPromptsService extends SplitPrompts {
  constructor(private readonly prompts: PromptsRepository) {
    super();
  }

  async promptsOf(tenantId: string, endpointId: string, promptIds: string[]): Promise<Map<string, SplitPrompt>> {
    const found = await this.prompts.findOfEndpoint(tenantId, endpointId, promptIds);
    return new Map(found.map((prompt) => [prompt.id, { name: prompt.name, status: prompt.status }]));
  }
}
