import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiEnum } from '../../../common/http/api-schema.decorators';
import type { BudgetEntity } from '../budget.entity';
import { BUDGET_PERIODS, type BudgetPeriod } from '../budget-period';
import { type BudgetScope, scopeOf } from '../budget-scope';
import { BudgetScopeDto } from './budget.dto';

/** Where a budget stands in the current period. */
export class BudgetStatusResponse {
  @ApiDateTime()
  periodStart: Date;
  /** The first instant of the next period (exclusive). */
  @ApiDateTime()
  periodEnd: Date;
  /** The cost of the period's executions that finished (their log rows' costUsd). */
  spentUsd: number;
  /** The worst-case cost of the calls in flight now. */
  reservedUsd: number;
  /** limitUsd − spentUsd − reservedUsd, never below 0. */
  remainingUsd: number;
}

export class BudgetResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;
  name: string;
  @ApiProperty({ type: BudgetScopeDto })
  scope: BudgetScope;
  @ApiEnum('BudgetPeriod', BUDGET_PERIODS)
  period: BudgetPeriod;
  limitUsd: number;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
  status: BudgetStatusResponse;
}

export function toBudgetResponse(entity: BudgetEntity, status: BudgetStatusResponse): BudgetResponse {
  return {
    id: entity.id,
    name: entity.name,
    scope: scopeOf(entity.scopeType, entity.scopeRef),
    period: entity.period,
    limitUsd: Number(entity.limitUsd),
    enabled: entity.enabled,
    createdAt: entity.createdAt,
    updatedAt: entity.updatedAt,
    status,
  };
}
