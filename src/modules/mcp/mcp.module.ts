import { Module } from '@nestjs/common';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { ModelsModule } from '../models/models.module';
import { McpController } from './mcp.controller';
import { McpAuthGuard } from './mcp-auth.guard';
import { McpServerFactory } from './mcp-server.factory';
import { MCP_TOOL_GROUPS, McpToolGroup } from './mcp-tool';
import { EndpointTools } from './tools/endpoint.tools';
import { ModelTools } from './tools/model.tools';

const TOOL_GROUPS = [EndpointTools, ModelTools];

// Owns the /mcp server (Streamable HTTP, admin keys): tools over the same services as the admin REST API.
// Exports nothing.
@Module({
  imports: [EndpointsModule, ModelsModule],
  controllers: [McpController],
  providers: [
    McpServerFactory,
    McpAuthGuard,
    ...TOOL_GROUPS,
    { provide: MCP_TOOL_GROUPS, inject: TOOL_GROUPS, useFactory: (...groups: McpToolGroup[]) => groups },
  ],
})
export class McpModule {}
