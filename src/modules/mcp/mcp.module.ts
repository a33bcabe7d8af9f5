import { Module } from '@nestjs/common';
import { BudgetsModule } from '../budgets/budgets.module';
import { DatasetsModule } from '../datasets/datasets.module';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { EvaluationsModule } from '../evaluations/evaluations.module';
import { ExecutionModule } from '../execution/execution.module';
import { KeysModule } from '../keys/keys.module';
import { LogsModule } from '../logs/logs.module';
import { ModelsModule } from '../models/models.module';
import { PromptsModule } from '../prompts/prompts.module';
import { RateLimitModule } from '../../common/rate-limit/rate-limit.module';
import { EndpointResources } from './endpoint.resources';
import { McpController } from './mcp.controller';
import { McpAuthGuard } from './mcp-auth.guard';
import { McpServerFactory } from './mcp-server.factory';
import { MCP_TOOL_GROUPS, McpToolGroup } from './mcp-tool';
import { BudgetTools } from './tools/budget.tools';
import { EndpointTools } from './tools/endpoint.tools';
import { EvaluationTools } from './tools/evaluation.tools';
import { ExecutionTools } from './tools/execution.tools';
import { KeyTools } from './tools/key.tools';
import { LogTools } from './tools/log.tools';
import { ModelTools } from './tools/model.tools';
import { PromptTools } from './tools/prompt.tools';

const TOOL_GROUPS = [
  EndpointTools,
  PromptTools,
  ModelTools,
  LogTools,
  ExecutionTools,
  KeyTools,
  BudgetTools,
  EvaluationTools,
];

// Owns the /mcp server (Streamable HTTP, admin keys): tools over the same services as the admin REST API.
// Exports nothing.
@Module({
  imports: [
    BudgetsModule,
    DatasetsModule,
    EndpointsModule,
    EvaluationsModule,
    PromptsModule,
    ModelsModule,
    LogsModule,
    ExecutionModule,
    KeysModule,
    RateLimitModule,
  ],
  controllers: [McpController],
  providers: [
    McpServerFactory,
    EndpointResources,
    McpAuthGuard,
    ...TOOL_GROUPS,
    { provide: MCP_TOOL_GROUPS, inject: TOOL_GROUPS, useFactory: (...groups: McpToolGroup[]) => groups },
  ],
})
export class McpModule {}
