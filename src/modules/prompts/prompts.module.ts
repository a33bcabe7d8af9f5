import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { SplitPrompts } from '../endpoints/split-prompts';
import { PromptNames } from '../logs/prompt-names';
import { ModelsModule } from '../models/models.module';
import { VersionsModule } from '../versions/versions.module';
import { PromptEntity } from './prompt.entity';
import { PromptLifecycleService } from './prompt-lifecycle.service';
import { PromptVersionsController } from './prompt-versions.controller';
import { PromptSelectionService } from './prompt-selection.service';
import { PromptVersionsService } from './prompt-versions.service';
import { PromptsController } from './prompts.controller';
import { PromptsRepository } from './prompts.repository';
import { PromptsService } from './prompts.service';
import { SplitPromptsService } from './split-prompts.service';
import { TemplateService } from './template/template.service';

// Owns the prompts table and the /admin/v1/prompts routes: lifecycle, default prompt, validator, versions, restore.
// Exports PromptsService, PromptSelectionService (execution's prompt), the lifecycle and versions services (MCP tools) and TemplateService;
// globally, the ports through which the endpoints module checks a traffic split's prompts (SplitPrompts) and the
// statistics name prompts (PromptNames).
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([PromptEntity]), EndpointsModule, ModelsModule, VersionsModule],
  controllers: [PromptsController, PromptVersionsController],
  providers: [
    PromptsRepository,
    PromptsService,
    PromptSelectionService,
    PromptLifecycleService,
    PromptVersionsService,
    TemplateService,
    SplitPromptsService,
    { provide: SplitPrompts, useExisting: SplitPromptsService },
    { provide: PromptNames, useExisting: PromptsService },
  ],
  exports: [
    PromptsService,
    PromptSelectionService,
    PromptLifecycleService,
    PromptVersionsService,
    TemplateService,
    SplitPrompts,
    PromptNames,
  ],
})
export class PromptsModule {}
