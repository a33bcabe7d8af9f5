import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { BudgetEntity } from './budget.entity';

export type NewBudget = Pick<BudgetEntity, 'name' | 'scopeType' | 'scopeRef' | 'period' | 'limitUsd' | 'enabled'>;
export type BudgetChanges = Partial<NewBudget>;

@Injectable()
export class BudgetsRepository {
  constructor(@InjectRepository(BudgetEntity) private readonly budgets: Repository<BudgetEntity>) {}

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
