import { BudgetEntity } from '../modules/budgets/budget.entity';
import { DatasetItemEntity } from '../modules/datasets/dataset-item.entity';
import { DatasetEntity } from '../modules/datasets/dataset.entity';
import { EndpointEntity } from '../modules/endpoints/endpoint.entity';
import { InputFieldEntity, OutputFieldEntity } from '../modules/endpoints/endpoint-field.entity';
import { ApiKeyEntity } from '../modules/keys/api-key.entity';
import { ExecutionLogEntity } from '../modules/logs/execution-log.entity';
import { PromptEventEntity } from '../modules/prompt-events/prompt-event.entity';
import { PromptEntity } from '../modules/prompts/prompt.entity';
import { ExecutionScoreEntity } from '../modules/scores/execution-score.entity';
import { ScoreConfigEntity } from '../modules/scores/score-config.entity';
import { TenantEntity } from '../modules/tenants/tenant.entity';
import { PromptVersionEntity } from '../modules/versions/prompt-version.entity';

/** Every entity, for the TypeORM CLI (the app registers them per module with forFeature). */
export const ENTITIES = [
  TenantEntity,
  ApiKeyEntity,
  EndpointEntity,
  InputFieldEntity,
  OutputFieldEntity,
  PromptEntity,
  PromptVersionEntity,
  ExecutionLogEntity,
  ScoreConfigEntity,
  ExecutionScoreEntity,
  BudgetEntity,
  DatasetEntity,
  DatasetItemEntity,
  PromptEventEntity,
];
