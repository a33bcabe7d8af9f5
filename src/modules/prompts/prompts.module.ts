import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { SplitPrompts } from '../endpoints/split-prompts';
import { InvalidationModule } from '../invalidation/invalidation.module';
import { KeysModule } from '../keys/keys.module';
import { ModelsModule } from '../models/models.module';
import { PromptEventsModule } from '../prompt-events/prompt-events.module';
import { VersionsModule } from '../versions/versions.module';
import { PromptEntity } from './prompt.entity';
import { PromptHistoryController } from './prompt-history.controller';
import { PromptHistoryService } from './prompt-history.service';
import { PromptLifecycleService } from './prompt-lifecycle.service';
import { PromptVersionsController } from './prompt-versions.controller';
import { PromptSelectionService } from './prompt-selection.service';
import { PromptVersionsService } from './prompt-versions.service';
import { PromptsController } from './prompts.controller';
import { PromptsRepository } from './prompts.repository';
import { PromptsService } from './prompts.service';
import { SplitPromptsService } from './split-prompts.service';
import { TemplateService } from './template/template.service';

/** Every service of the module is exported (its repository is not). */
const SERVICES = [
  PromptsService,
  PromptSelectionService,
  PromptLifecycleService,
  PromptVersionsService,
  TemplateService,
  SplitPromptsService,
  PromptHistoryService,
];

// Owns the prompts table and the /admin/v1/prompts routes: lifecycle, default prompt, validator, versions, restore,
// and the history routes of prompts and endpoints (the prompt-events module keeps the events). Exports PromptsService
// (whose names the log statistics read), PromptSelectionService (execution's prompt), the lifecycle and versions
// services (MCP tools) and TemplateService.
@Module({
  imports: [
    TypeOrmModule.forFeature([PromptEntity]),
    EndpointsModule,
    ModelsModule,
    VersionsModule,
    InvalidationModule,
    PromptEventsModule,
    KeysModule,
  ],
  controllers: [PromptsController, PromptVersionsController, PromptHistoryController],
  providers: [PromptsRepository, ...SERVICES],
  exports: SERVICES,
})
export class PromptsModule {}

/**
 * The SplitPrompts port through which the endpoints module checks a traffic split's prompts. The one global module
 * among the resources: prompts build on endpoints (a prompt belongs to an endpoint), so the endpoints module cannot
 * import this one, and Nest gives it the port this way instead.
 */
@Global()
@Module({
  imports: [PromptsModule],
  providers: [{ provide: SplitPrompts, useExisting: SplitPromptsService }],
  exports: [SplitPrompts],
})
export class SplitPromptsModule {}
