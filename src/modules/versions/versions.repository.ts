import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, LessThanOrEqual, Repository } from 'typeorm';
import { PromptVersionEntity } from './prompt-version.entity';

export type NewVersionValues = Omit<PromptVersionEntity, 'id' | 'tenantId' | 'promptId' | 'versionNumber' | 'archived' | 'createdAt'>;

@Injectable()
export class VersionsRepository {
  constructor(@InjectRepository(PromptVersionEntity) private readonly versions: Repository<PromptVersionEntity>) {}

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
    manager: EntityManager,
    tenantId: string,
    promptId: string,
    versionNumber: number,
    values: NewVersionValues,
  ): Promise<PromptVersionEntity> {
    const repository = manager.getRepository(PromptVersionEntity);
    return repository.save(repository.create({ ...values, tenantId, promptId, versionNumber, archived: false }));
  }

  /** Marks every version up to `versionNumber` as archived (retention); nothing is deleted. */
  async archiveUpTo(manager: EntityManager, tenantId: string, promptId: string, versionNumber: number): Promise<void> {
    await manager
      .getRepository(PromptVersionEntity)
      .update({ tenantId, promptId, versionNumber: LessThanOrEqual(versionNumber), archived: false }, { archived: true });
  }
}
