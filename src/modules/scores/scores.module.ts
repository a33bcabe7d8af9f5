import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExecutionScoreEntity } from './execution-score.entity';
import { ScoreConfigEntity } from './score-config.entity';
import { ExecutionScoresRepository } from './execution-scores.repository';
import { ExecutionScoresService } from './execution-scores.service';
import { ScoreConfigsController } from './score-configs.controller';
import { ScoreConfigsRepository } from './score-configs.repository';
import { ScoreConfigsService } from './score-configs.service';
import { ScoreRollupsRepository } from './score-rollups.repository';
import { ScoreStatsService } from './score-stats.service';

// Owns score_configs and execution_scores: what a tenant may score (GET/POST/PUT/DELETE /admin/v1/score-configs), and
// the scores recorded on executions.
// Exports ExecutionScoresService (recording and reading scores, for the execution API, the logs and MCP) and
// ScoreStatsService (a score's hourly sums, for the statistics).
@Module({
  imports: [TypeOrmModule.forFeature([ScoreConfigEntity, ExecutionScoreEntity])],
  controllers: [ScoreConfigsController],
  providers: [
    ScoreConfigsRepository,
    ExecutionScoresRepository,
    ExecutionScoresService,
    ScoreConfigsService,
    ScoreRollupsRepository,
    ScoreStatsService,
  ],
  exports: [ExecutionScoresService, ScoreStatsService],
})
export class ScoresModule {}
