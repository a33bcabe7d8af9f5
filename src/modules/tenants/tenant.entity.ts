import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

import type { Plan } from './plans';

export { type Plan, PLANS } from './plans';

@Entity('tenants')
export class TenantEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column() slug: string;
  @Column() name: string;
  @Column({ type: 'varchar' }) plan: Plan;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
