import { Injectable } from '@nestjs/common';
import { In, LessThanOrEqual, Repository } from 'typeorm';
import type { VersionGate } from './prompt-version';
import { PromptVersionEntity } from './prompt-version.entity';
import { TransactionHost } from '../../database/transactions';

export type NewVersionValues = Omit<
  PromptVersionEntity,
  'id' | 'tenantId' | 'promptId' | 'versionNumber' | 'archived' | 'createdAt' | 'gate'
>;

@Injectable()
export class VersionsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  /** The open transaction's, when there is one. */
  private get versions(): Repository<PromptVersionEntity> {
    return this.txHost.tx.getRepository(PromptVersionEntity);
  }

  list(tenantId: string, promptId: string): Promise<PromptVersionEntity[]> {
    return this.versions.find({ where: { tenantId, promptId }, order: { versionNumber: 'ASC' } });
  }

  find(tenantId: string, promptId: string, versionNumber: number): Promise<PromptVersionEntity | null> {
    return this.versions.findOneBy({ tenantId, promptId, versionNumber });
  }

  findMany(tenantId: string, promptId: string, versionNumbers: number[]): Promise<PromptVersionEntity[]> {
    return this.versions.findBy({ tenantId, promptId, versionNumber: In(versionNumbers) });
  }

  insert(
    tenantId: string,
    promptId: string,
    versionNumber: number,
    values: NewVersionValues,
  ): Promise<PromptVersionEntity> {
    const repository = this.versions;
    return repository.save(
      repository.create({ ...values, tenantId, promptId, versionNumber, archived: false, gate: null }),
    );
  }

  async setGate(tenantId: string, promptId: string, versionNumber: number, gate: VersionGate): Promise<void> {
    await this.versions.update({ tenantId, promptId, versionNumber }, { gate });
  }

  /** Marks every version up to `versionNumber` as archived (retention); nothing is deleted. */
  async archiveUpTo(tenantId: string, promptId: string, versionNumber: number): Promise<void> {
    await this.versions.update(
      { tenantId, promptId, versionNumber: LessThanOrEqual(versionNumber), archived: false },
      { archived: true },
    );
  }
}
