import { Module } from '@nestjs/common';
import { BudgetsModule } from '../budgets/budgets.module';
import { ResponseCacheModule } from '../cache/response-cache.module';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { LlmModule } from '../llm/llm.module';
import { LogsModule } from '../logs/logs.module';
import { ModelsModule } from '../models/models.module';
import { PromptsModule } from '../prompts/prompts.module';
import { ExecutionAccessGuard } from './execution-access.guard';
import { ExecutionAdminController } from './execution-admin.controller';
import { ExecutionController } from './execution.controller';
import { ExecutionService } from './execution.service';
import { ExecutionStreamService } from './streaming/execution-stream.service';

// Owns the execution API (POST /api/v1/*) and test runs (POST /admin/v1/endpoints/{id}/test): validation, rendering,
// the LLM call and the output rules. Exports ExecutionService (for MCP).
@Module({
  imports: [BudgetsModule, EndpointsModule, PromptsModule, ModelsModule, LlmModule, LogsModule, ResponseCacheModule],
  controllers: [ExecutionController, ExecutionAdminController],
  providers: [ExecutionService, ExecutionStreamService, ExecutionAccessGuard],
  exports: [ExecutionService],
})
export class ExecutionModule {}
