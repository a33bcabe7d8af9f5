import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { ScoreDataType, ScoreSource } from './score-types';

/**
 * One score of one execution (unique per log row and name). It copies the execution's endpoint, prompt, version, key
 * and time, so statistics read scores without the log rows.
 */
@Entity('execution_scores')
export class ExecutionScoreEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') tenantId: string;
  /** The execution log row scored. */
  @Column('uuid') logId: string;
  @Column('uuid') endpointId: string;
  @Column({ type: 'uuid', nullable: true }) promptId: string | null;
  @Column({ type: 'int', nullable: true }) promptVersion: number | null;
  @Column({ type: 'uuid', nullable: true }) keyId: string | null;
  /** When the execution ran (its log row's createdAt): a score counts in its execution's hour. */
  @Column({ type: 'timestamptz' }) executedAt: Date;
  @Column() name: string;
  /** Null only for an evaluation's check scores, which need no declared config. */
  @Column({ type: 'uuid', nullable: true }) configId: string | null;
  @Column({ type: 'varchar' }) dataType: ScoreDataType;
  /** Boolean scores as 0 or 1, numeric scores as they are; null for categorical ones. */
  @Column({ type: 'double precision', nullable: true }) valueNumber: number | null;
  /** Categorical scores: the category; null otherwise. */
  @Column({ type: 'varchar', nullable: true }) valueCategory: string | null;
  @Column({ type: 'text', nullable: true }) comment: string | null;
  @Column({ type: 'varchar' }) source: ScoreSource;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
