import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { BudgetPeriod } from './budget-period';
import type { BudgetScopeType } from './budget-scope';

@Entity('budgets')
export class BudgetEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') tenantId: string;
  @Column() name: string;
  @Column({ type: 'varchar' }) scopeType: BudgetScopeType;
  /** What the scope names: the key's or the endpoint's id, the tag (`key:value`); '' for the tenant. */
  @Column({ type: 'varchar' }) scopeRef: string;
  @Column({ type: 'varchar' }) period: BudgetPeriod;
  /** Dollars with up to 6 decimals (the driver reads numeric as a string). */
  @Column({ type: 'numeric' }) limitUsd: string;
  @Column() enabled: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
