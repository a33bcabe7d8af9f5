import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type Visibility = 'Public' | 'Private';
export const VISIBILITIES: Visibility[] = ['Public', 'Private'];

@Entity('endpoints')
export class EndpointEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') tenantId: string;
  @Column() name: string;
  @Column() path: string;
  @Column() description: string;
  @Column({ type: 'varchar' }) visibility: Visibility;
  @Column({ type: 'varchar', nullable: true }) category: string | null;
  @Column() cacheEnabled: boolean;
  @Column('int') cacheDurationSeconds: number;
  @Column({ type: 'int', nullable: true }) rateLimitPerMinute: number | null;
  @Column({ type: 'int', nullable: true }) rateLimitPerHour: number | null;
  @Column({ type: 'int', nullable: true }) rateLimitPerDay: number | null;
  @Column('int') timeoutSeconds: number;
  @Column({ type: 'uuid', nullable: true }) defaultPromptId: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
  @Column({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}
