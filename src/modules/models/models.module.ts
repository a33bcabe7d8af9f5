import { Module } from '@nestjs/common';
import { ModelsController } from './models.controller';
import { ModelsService } from './models.service';

// Owns the model catalog (built-in, packaged data, MODELS_FILE) and GET /admin/v1/prompts/models.
// Exports ModelsService.
@Module({ controllers: [ModelsController], providers: [ModelsService], exports: [ModelsService] })
export class ModelsModule {}
