import { Global, Module } from '@nestjs/common';
import { DatasetsModule } from '../datasets/datasets.module';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { ExecutionModule } from '../execution/execution.module';
import { LlmModule } from '../llm/llm.module';
import { LogsModule } from '../logs/logs.module';
import { ScoresModule } from '../scores/scores.module';
import { ModelsModule } from '../models/models.module';
import { PromptsModule } from '../prompts/prompts.module';
import { VersionsModule } from '../versions/versions.module';
import { EvalItemService } from './eval-item.service';
import { PromotionGate } from '../prompts/promotion-gate';
import { EvalJudgeService } from './eval-judge.service';
import { EvalPromotionGateService } from './eval-promotion-gate.service';
import { EvalPromptsService } from './eval-prompts.service';
import { EvalRunnerService } from './eval-runner.service';
import { EvalRunsController } from './eval-runs.controller';
import { EvalRunsRepository } from './eval-runs.repository';
import { EvalRunsService } from './eval-runs.service';

// Owns eval_runs, eval_run_items and eval_answers: evaluation runs of datasets, their background runner and the
// promotion gate's evidence. Exports EvalRunsService and EvalPromotionGateService (the PromotionGate port).
@Module({
  imports: [
    DatasetsModule,
    EndpointsModule,
    PromptsModule,
    VersionsModule,
    ExecutionModule,
    LogsModule,
    ScoresModule,
    ModelsModule,
    LlmModule,
  ],
  controllers: [EvalRunsController],
  providers: [
    EvalRunsRepository,
    EvalRunsService,
    EvalPromptsService,
    EvalRunnerService,
    EvalItemService,
    EvalJudgeService,
    EvalPromotionGateService,
  ],
  exports: [EvalRunsService, EvalPromotionGateService],
})
export class EvaluationsModule {}

/**
 * The PromotionGate port through which the prompts module promotes. Global, as the endpoints' SplitPrompts port is:
 * prompts cannot import this module (evaluations build on execution, which builds on prompts), and Nest gives it the
 * port this way instead.
 */
@Global()
@Module({
  imports: [EvaluationsModule],
  providers: [{ provide: PromotionGate, useExisting: EvalPromotionGateService }],
  exports: [PromotionGate],
})
export class PromotionGateModule {}
