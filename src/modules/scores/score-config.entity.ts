import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { ScoreDataType } from './score-types';

/** What a tenant lets be scored: a name, its value type and the values it allows. */
@Entity('score_configs')
export class ScoreConfigEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') tenantId: string;
  @Column() name: string;
  @Column({ type: 'varchar' }) dataType: ScoreDataType;
  /** Numeric configs: the inclusive bounds (null otherwise). */
  @Column({ type: 'double precision', nullable: true }) minimum: number | null;
  @Column({ type: 'double precision', nullable: true }) maximum: number | null;
  /** Categorical configs: the allowed values (null otherwise). */
  @Column({ type: 'jsonb', nullable: true }) categories: string[] | null;
  @Column({ default: '' }) description: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
