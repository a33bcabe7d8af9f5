import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type Plan = 'free' | 'pro' | 'enterprise';
export const PLANS: Plan[] = ['free', 'pro', 'enterprise'];

@Entity('tenants')
export class TenantEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column() slug: string;
  @Column() name: string;
  @Column({ type: 'varchar' }) plan: Plan;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
