import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/time/clock';
import { TransactionHost } from '../../database/transactions';
import { EndpointsService } from '../endpoints/endpoints.service';
import { InvalidationBus } from '../invalidation/invalidation-bus';
import { TENANT_BUDGETS_TOPIC } from '../invalidation/topics';
import { KeysService } from '../keys/keys.service';
import { toActiveBudget } from './active-budget';
import type { BudgetEntity } from './budget.entity';
import { type BudgetScope, scopeProblems, scopeRefOf } from './budget-scope';
import { BudgetSpendingService } from './budget-spending.service';
import { BudgetErrors, MAX_BUDGETS_PER_TENANT } from './budgets.errors';
import { type BudgetChanges, BudgetsRepository } from './budgets.repository';
import type { CreateBudgetDto, UpdateBudgetDto } from './dto/budget.dto';
import { type BudgetResponse, toBudgetResponse } from './dto/budget.response';

/**
 * Budgets of a tenant: at most MAX_BUDGETS_PER_TENANT, one per scope and period, each scope naming a key or an
 * endpoint of the tenant (404 otherwise) or a tag. Reads carry the current period's status. Every change is announced
 * so that every instance applies it from its next call.
 */
@Injectable()
export class BudgetsService {
  constructor(
    private readonly txHost: TransactionHost,
    private readonly budgets: BudgetsRepository,
    private readonly spending: BudgetSpendingService,
    private readonly keys: KeysService,
    private readonly endpoints: EndpointsService,
    private readonly bus: InvalidationBus,
    private readonly clock: Clock,
  ) {}

  async list(tenantId: string): Promise<BudgetResponse[]> {
    return this.withStatus(await this.budgets.listAll(tenantId));
  }

  async get(tenantId: string, id: string): Promise<BudgetResponse> {
    const [response] = await this.withStatus([await this.find(tenantId, id)]);
    return response;
  }

  async create(tenantId: string, input: CreateBudgetDto): Promise<BudgetResponse> {
    const scopeRef = await this.checkScope(tenantId, input.scope);
    const created = await this.txHost.withTransaction(async () => {
      // Creations of one tenant take turns, so two at once cannot both pass the count.
      await this.budgets.lockTenantBudgets(tenantId);
      if ((await this.budgets.countAll(tenantId)) >= MAX_BUDGETS_PER_TENANT) throw BudgetErrors.tooMany();
      await this.checkScopeFree(tenantId, input.scope, scopeRef, input.period, null);
      return this.budgets.create(tenantId, {
        name: input.name,
        scopeType: input.scope.type,
        scopeRef,
        period: input.period,
        limitUsd: String(input.limitUsd),
        enabled: input.enabled ?? true,
      });
    });
    await this.bus.publish(TENANT_BUDGETS_TOPIC, tenantId);
    return this.get(tenantId, created.id);
  }

  async update(tenantId: string, id: string, input: UpdateBudgetDto): Promise<BudgetResponse> {
    const budget = await this.find(tenantId, id);
    const changes: BudgetChanges = {
      name: input.name,
      period: input.period,
      limitUsd: input.limitUsd === undefined ? undefined : String(input.limitUsd),
      enabled: input.enabled,
    };
    if (input.scope) {
      changes.scopeType = input.scope.type;
      changes.scopeRef = await this.checkScope(tenantId, input.scope);
    }
    if (input.scope || input.period) {
      const scope = input.scope ?? { type: budget.scopeType };
      const scopeRef = changes.scopeRef ?? budget.scopeRef;
      await this.checkScopeFree(tenantId, scope, scopeRef, input.period ?? budget.period, id);
    }
    await this.budgets.update(tenantId, id, changes);
    await this.bus.publish(TENANT_BUDGETS_TOPIC, tenantId);
    return this.get(tenantId, id);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    if (!(await this.budgets.delete(tenantId, id))) throw BudgetErrors.budgetNotFound(id);
    await this.bus.publish(TENANT_BUDGETS_TOPIC, tenantId);
  }

  private async find(tenantId: string, id: string): Promise<BudgetEntity> {
    const budget = await this.budgets.findById(tenantId, id);
    if (!budget) throw BudgetErrors.budgetNotFound(id);
    return budget;
  }

  /** The scope's stored reference, once its fields are right and the key or endpoint it names is the tenant's. */
  private async checkScope(tenantId: string, scope: BudgetScope): Promise<string> {
    const problems = scopeProblems(scope);
    if (problems.length > 0) throw BudgetErrors.scopeInvalid(problems);
    if (scope.type === 'key') await this.keys.get(tenantId, scope.keyId!);
    if (scope.type === 'endpoint') await this.endpoints.get(tenantId, scope.endpointId!);
    return scopeRefOf(scope);
  }

  /** 409 when another budget of the tenant has this scope and period (the unique constraint is the last word). */
  private async checkScopeFree(
    tenantId: string,
    scope: Pick<BudgetScope, 'type'>,
    scopeRef: string,
    period: string,
    ownId: string | null,
  ): Promise<void> {
    const other = await this.budgets.findByScope(tenantId, scope.type, scopeRef, period);
    if (other && other.id !== ownId) throw BudgetErrors.scopeTaken(period);
  }

  private async withStatus(budgets: BudgetEntity[]): Promise<BudgetResponse[]> {
    const at = new Date(this.clock.epochNow());
    const figures = await this.spending.figuresOf(budgets.map(toActiveBudget), at);
    return budgets.map((budget, i) => {
      const { window, spentUsd, reservedUsd, remainingUsd } = figures[i];
      return toBudgetResponse(budget, {
        periodStart: window.start,
        periodEnd: window.end,
        spentUsd,
        reservedUsd,
        remainingUsd,
      });
    });
  }
}
