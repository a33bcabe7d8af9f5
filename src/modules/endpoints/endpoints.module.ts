import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InvalidationModule } from '../invalidation/invalidation.module';
import { PromptEventsModule } from '../prompt-events/prompt-events.module';
import { EndpointEntity } from './endpoint.entity';
import { InputFieldEntity, OutputFieldEntity } from './endpoint-field.entity';
import { EndpointFieldsController } from './endpoint-fields.controller';
import { EndpointFieldsRepository } from './endpoint-fields.repository';
import { EndpointFieldsService } from './endpoint-fields.service';
import { EndpointsController } from './endpoints.controller';
import { EndpointsRepository } from './endpoints.repository';
import { EndpointsService } from './endpoints.service';

// Owns the endpoints, input_fields and output_fields tables: CRUD, soft delete, restore, permanent delete.
// Exports EndpointsService (definitions for prompts and execution) and EndpointFieldsService (MCP tools).
@Module({
  imports: [
    TypeOrmModule.forFeature([EndpointEntity, InputFieldEntity, OutputFieldEntity]),
    InvalidationModule,
    PromptEventsModule,
  ],
  controllers: [EndpointsController, EndpointFieldsController],
  providers: [EndpointsRepository, EndpointFieldsRepository, EndpointsService, EndpointFieldsService],
  exports: [EndpointsService, EndpointFieldsService],
})
export class EndpointsModule {}
