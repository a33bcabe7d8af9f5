import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { TransactionHost } from '../../database/transactions';
import { BudgetEntity } from './budget.entity';

export type NewBudget = Pick<BudgetEntity, 'name' | 'scopeType' | 'scopeRef' | 'period' | 'limitUsd' | 'enabled'>;
export type BudgetChanges = Partial<NewBudget>;

@Injectable()
export class BudgetsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  /** The open transaction's, when there is one. */
  private get budgets(): Repository<BudgetEntity> {
    return this.txHost.tx.getRepository(BudgetEntity);
  }

  /** Inside a transaction: makes the tenant's budget creations take turns until it ends (a transaction-level lock). */
  async lockTenantBudgets(tenantId: string): Promise<void> {
    await this.budgets.query(`SELECT pg_advisory_xact_lock(hashtextextended('budgets:' || $1, 0))`, [tenantId]);
  }

  /** Every budget of the tenant (at most 100), oldest first. */
  listAll(tenantId: string): Promise<BudgetEntity[]> {
    return this.budgets.find({ where: { tenantId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findById(tenantId: string, id: string): Promise<BudgetEntity | null> {
    return this.budgets.findOneBy({ tenantId, id });
  }

  countAll(tenantId: string): Promise<number> {
    return this.budgets.countBy({ tenantId });
  }

  findByScope(tenantId: string, scopeType: string, scopeRef: string, period: string): Promise<BudgetEntity | null> {
    return this.budgets.findOneBy({
      tenantId,
      scopeType: scopeType as BudgetEntity['scopeType'],
      scopeRef,
      period: period as BudgetEntity['period'],
    });
  }

  create(tenantId: string, values: NewBudget): Promise<BudgetEntity> {
    return this.budgets.save(this.budgets.create({ ...values, tenantId }));
  }

  async update(tenantId: string, id: string, changes: BudgetChanges): Promise<void> {
    if (Object.values(changes).every((value) => value === undefined)) return;
    await this.budgets.update({ tenantId, id }, changes);
  }

  /** Whether a budget was deleted. */
  async delete(tenantId: string, id: string): Promise<boolean> {
    const result = await this.budgets.delete({ tenantId, id });
    return (result.affected ?? 0) > 0;
  }
}
