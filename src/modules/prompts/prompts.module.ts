import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { ModelsModule } from '../models/models.module';
import { VersionsModule } from '../versions/versions.module';
import { PromptEntity } from './prompt.entity';
import { PromptLifecycleService } from './prompt-lifecycle.service';
import { PromptVersionsController } from './prompt-versions.controller';
import { PromptVersionsService } from './prompt-versions.service';
import { PromptsController } from './prompts.controller';
import { PromptsRepository } from './prompts.repository';
import { PromptsService } from './prompts.service';
import { TemplateService } from './template/template.service';

// Owns the prompts table and the /admin/v1/prompts routes: lifecycle, default prompt, validator, versions, restore.
// Exports PromptsService (execution lookups), the lifecycle and versions services (MCP tools) and TemplateService.
@Module({
  imports: [TypeOrmModule.forFeature([PromptEntity]), EndpointsModule, ModelsModule, VersionsModule],
  controllers: [PromptsController, PromptVersionsController],
  providers: [PromptsRepository, PromptsService, PromptLifecycleService, PromptVersionsService, TemplateService],
  exports: [PromptsService, PromptLifecycleService, PromptVersionsService, TemplateService],
})
export class PromptsModule {}
