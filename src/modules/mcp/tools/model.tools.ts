import { Injectable } from '@nestjs/common';
import { toModelResponse } from '../../models/dto/model.response';
import { ModelsService } from '../../models/models.service';
import { defineTool, McpTool, McpToolGroup } from '../mcp-tool';

/** The model catalog, as GET /admin/v1/models answers it. */
@Injectable()
export class ModelTools extends McpToolGroup {
  readonly toolset = 'models';

  constructor(private readonly models: ModelsService) {
    super();
  }

  tools(): McpTool[] {
    return [
      defineTool({
        name: 'list_models',
        title: 'List models',
        description:
          'Every model a prompt can use (llmModel), with capabilities, context window, pricing and whether its provider is ' +
          'configured (available).',
        access: 'read',
        output: 'list',
        run: async () => this.models.list().map(toModelResponse),
      }),
    ];
  }
}
