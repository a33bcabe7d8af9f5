import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { FallbackModel, PromptStatus } from './executable-prompt';

/** A prompt with the content of its latest version (the versions table keeps every saved one). */
@Entity('prompts')
export class PromptEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') tenantId: string;
  @Column('uuid') endpointId: string;
  @Column() name: string;
  @Column() slug: string;
  @Column('text') template: string;
  @Column() llmModel: string;
  @Column('double precision') temperature: number;
  @Column('int') maxTokens: number;
  @Column({ type: 'jsonb', default: () => "'{}'" }) customParameters: Record<string, unknown>;
  @Column('smallint') retries: number;
  @Column({ type: 'jsonb', default: () => "'[]'" }) fallbackModels: FallbackModel[];
  @Column({ type: 'varchar' }) status: PromptStatus;
  @Column('int') currentVersion: number;
  @Column({ type: 'text', nullable: true }) changeNotes: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
