import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { RateLimitColumns } from '../../common/rate-limit/rate-limit-settings';
import type { PromotionGateSettings } from './promotion-gate-settings';
import type { TrafficSplit } from './traffic-split';

export type Visibility = 'Public' | 'Private';
export const VISIBILITIES: Visibility[] = ['Public', 'Private'];

@Entity('endpoints')
export class EndpointEntity extends RateLimitColumns {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') tenantId: string;
  @Column() name: string;
  @Column() path: string;
  @Column() description: string;
  @Column({ type: 'varchar' }) visibility: Visibility;
  @Column({ type: 'varchar', nullable: true }) category: string | null;
  @Column() cacheEnabled: boolean;
  @Column('int') cacheDurationSeconds: number;
  @Column('int') timeoutSeconds: number;
  @Column({ type: 'uuid', nullable: true }) defaultPromptId: string | null;
  /** Changed only together with a check of its prompts (EndpointsService.setTrafficSplit). */
  @Column({ type: 'jsonb', nullable: true }) trafficSplit: TrafficSplit | null;
  /** What a promotion of one of its prompts needs; null when none. */
  @Column({ type: 'jsonb', nullable: true }) promotionGate: PromotionGateSettings | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
  @Column({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}
