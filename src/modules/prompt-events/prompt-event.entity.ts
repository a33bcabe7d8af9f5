import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { PromptEventDetails, PromptEventType } from './prompt-event';

/** One recorded change of a prompt or of its endpoint's split; rows are never changed after insert. */
@Entity('prompt_events')
export class PromptEventEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  /** Insertion order, for rows of the same instant; the database numbers it. */
  @Column({ type: 'bigint', insert: false, update: false }) seq: string;
  @Column('uuid') tenantId: string;
  @Column('uuid') endpointId: string;
  @Column({ type: 'uuid', nullable: true }) promptId: string | null;
  @Column({ type: 'int', nullable: true }) versionNumber: number | null;
  @Column({ type: 'varchar' }) type: PromptEventType;
  @Column({ type: 'uuid', nullable: true }) keyId: string | null;
  @Column({ type: 'jsonb' }) details: PromptEventDetails;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
