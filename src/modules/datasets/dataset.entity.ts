import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { DatasetCheck } from './dataset-check';

/** A named set of test inputs of one endpoint, and the checks run on each output. */
@Entity('datasets')
export class DatasetEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') tenantId: string;
  @Column('uuid') endpointId: string;
  @Column() name: string;
  @Column({ default: '' }) description: string;
  @Column({ type: 'jsonb', default: () => "'[]'" }) checks: DatasetCheck[];
  /** Adds 1 with each change of the items. */
  @Column('int') version: number;
  /** The items at `version`. */
  @Column('int') itemCount: number;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
