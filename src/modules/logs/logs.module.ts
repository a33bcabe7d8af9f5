import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PromptsModule } from '../prompts/prompts.module';
import { PromptsService } from '../prompts/prompts.service';
import { ScoresModule } from '../scores/scores.module';
import { ExecutionLogEntity } from './execution-log.entity';
import { ExecutionLogReadsService } from './execution-log-reads.service';
import { ExecutionLogRollupsRepository } from './execution-log-rollups.repository';
import { ExecutionLogsRepository } from './execution-logs.repository';
import { ExecutionLogsService } from './execution-logs.service';
import { LogRetentionService } from './log-retention.service';
import { LogScoresService } from './log-scores.service';
import { LogStatsService } from './log-stats.service';
import { PromptNames } from './prompt-names';
import { LogsController } from './logs.controller';
import { ScoresApiController } from './scores-api.controller';
import { StatsController } from './stats.controller';
import { TagSumRecoveryService } from './tag-sum-recovery.service';
import { TagSumWindowsRepository } from './tag-sum-windows.repository';

// Owns the execution_logs table and its rollups: the batched log writer, GET /admin/v1/logs, GET /admin/v1/stats,
// retention, and scoring log rows (POST /api/v1/_scores, POST /admin/v1/logs/{id}/scores; the scores module stores them).
// Exports ExecutionLogsService (the writer: record and flush, for execution), ExecutionLogReadsService, LogStatsService
// and LogScoresService (MCP tools); the statistics name prompts through the PromptNames port, which the prompts service
// fills.
@Module({
  imports: [TypeOrmModule.forFeature([ExecutionLogEntity]), PromptsModule, ScoresModule],
  // ScoresApiController's POST api/v1/_scores is registered before the execution module's POST api/v1/*path (this
  // module is imported by that one), which Express needs: it matches routes in the order they were added.
  controllers: [ScoresApiController, LogsController, StatsController],
  providers: [
    ExecutionLogsRepository,
    ExecutionLogRollupsRepository,
    ExecutionLogsService,
    ExecutionLogReadsService,
    LogStatsService,
    LogRetentionService,
    LogScoresService,
    TagSumWindowsRepository,
    TagSumRecoveryService,
    // Typed, so that PromptsService keeps answering what the statistics ask.
    { provide: PromptNames, inject: [PromptsService], useFactory: (prompts: PromptsService): PromptNames => prompts },
  ],
  exports: [ExecutionLogsService, ExecutionLogReadsService, LogStatsService, LogScoresService],
})
export class LogsModule {}
