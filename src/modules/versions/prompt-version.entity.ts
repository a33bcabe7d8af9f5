import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { VersionGate } from './version-gate';
import type { FallbackModel } from './version-compare';

export type VersionStatus = 'Draft' | 'Live' | 'Archived';
export const VERSION_STATUSES: VersionStatus[] = ['Draft', 'Live', 'Archived'];

/** One immutable saved state of a prompt; only `archived` (retention) changes after insert. */
@Entity('prompt_versions')
export class PromptVersionEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') tenantId: string;
  @Column('uuid') promptId: string;
  @Column('int') versionNumber: number;
  @Column({ type: 'varchar' }) status: VersionStatus;
  @Column('text') template: string;
  @Column() llmModel: string;
  @Column('double precision') temperature: number;
  @Column('int') maxTokens: number;
  @Column({ type: 'jsonb', default: () => "'{}'" }) customParameters: Record<string, unknown>;
  @Column('smallint') retries: number;
  @Column({ type: 'jsonb', default: () => "'[]'" }) fallbackModels: FallbackModel[];
  @Column({ type: 'text', nullable: true }) changeNotes: string | null;
  @Column() archived: boolean;
  /** How the version's promotion passed its endpoint's promotion gate; null when it was not promoted through one. */
  @Column({ type: 'jsonb', nullable: true }) gate: VersionGate | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
