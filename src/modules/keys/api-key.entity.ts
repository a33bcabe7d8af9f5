import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { KeyEnvironment, KeyType, Permission } from '../../common/auth/principal';
import { RateLimitColumns } from '../../common/rate-limit/rate-limit-settings';

export type KeyStatus = 'Active' | 'Revoked';
export const KEY_STATUSES: KeyStatus[] = ['Active', 'Revoked'];

@Entity('api_keys')
export class ApiKeyEntity extends RateLimitColumns {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') tenantId: string;
  @Column() name: string;
  @Column({ type: 'varchar' }) type: KeyType;
  @Column({ type: 'varchar', nullable: true }) environment: KeyEnvironment | null;
  @Column({ type: 'varchar', nullable: true }) permission: Permission | null;
  @Column({ type: 'char', length: 64 }) keyHash: string;
  @Column({ type: 'char', length: 4 }) last4: string;
  @Column({ type: 'varchar' }) status: KeyStatus;
  @Column({ type: 'uuid', array: true, nullable: true }) endpointIds: string[] | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @Column({ type: 'timestamptz', nullable: true }) lastUsedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  /** Tags every execution with the key carries (`{}` when none). */
  @Column({ type: 'jsonb', default: () => "'{}'" }) defaultTags: Record<string, string>;
}
