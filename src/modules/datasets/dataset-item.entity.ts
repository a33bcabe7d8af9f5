import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One item of a dataset, never changed: deleting it sets `removedInVersion`. It belongs to version V when
 * addedInVersion <= V and (removedInVersion is null or removedInVersion > V).
 */
@Entity('dataset_items')
export class DatasetItemEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') tenantId: string;
  @Column('uuid') datasetId: string;
  @Column({ type: 'jsonb' }) inputs: Record<string, unknown>;
  @Column({ type: 'jsonb', nullable: true }) expectedOutput: unknown;
  @Column({ type: 'jsonb', default: () => "'{}'" }) tags: Record<string, string>;
  @Column('int') addedInVersion: number;
  /** Its position in the call that added it: items are ordered by (addedInVersion, ordinal). */
  @Column('int') ordinal: number;
  @Column({ type: 'int', nullable: true }) removedInVersion: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
