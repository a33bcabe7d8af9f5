import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PromptEventEntity } from './prompt-event.entity';
import { PromptEventsRepository } from './prompt-events.repository';
import { PromptEventsService } from './prompt-events.service';

// Owns the prompt_events table: the history of prompts and of endpoints' splits, written in each change's transaction.
// Exports PromptEventsService (the endpoints and prompts modules record; the prompts module serves the lists).
@Module({
  imports: [TypeOrmModule.forFeature([PromptEventEntity])],
  providers: [PromptEventsRepository, PromptEventsService],
  exports: [PromptEventsService],
})
export class PromptEventsModule {}
