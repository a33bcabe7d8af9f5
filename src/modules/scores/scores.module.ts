import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExecutionScoreEntity } from './execution-score.entity';
import { ScoreConfigEntity } from './score-config.entity';
import { ExecutionScoresRepository } from './execution-scores.repository';
import { ExecutionScoresService } from './execution-scores.service';
import { ScoreConfigsRepository } from './score-configs.repository';
import { ScoreRollupsRepository } from './score-rollups.repository';
import { ScoreStatsService } from './score-stats.service';

// Owns score_configs and execution_scores: what a tenant may score, and the scores recorded on executions.
// Exports ExecutionScoresService (recording and reading scores, for the execution API, the logs and MCP) and
// ScoreStatsService (a score's sums over a period, for the statistics).
@Module({
  imports: [TypeOrmModule.forFeature([ScoreConfigEntity, ExecutionScoreEntity])],
  providers: [
    ScoreConfigsRepository,
    ExecutionScoresRepository,
    ExecutionScoresService,
    ScoreRollupsRepository,
    ScoreStatsService,
  ],
  exports: [ExecutionScoresService, ScoreStatsService],
})
export class ScoresModule {}
