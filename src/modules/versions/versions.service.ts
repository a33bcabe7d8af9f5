import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NotFoundError } from '../../common/errors/app-error';
import type { Plan } from '../tenants/tenant.entity';
import { TenantsService } from '../tenants/tenants.service';
import { PromptVersionEntity, VersionStatus } from './prompt-version.entity';
import { compareVersions, VersionComparison, VersionContent } from './version-compare';
import { VersionsRepository } from './versions.repository';

/** Versions kept active per prompt; null is unlimited. */
export const VERSION_HISTORY_LIMITS: Record<Plan, number | null> = { free: 10, pro: 50, enterprise: null };

export interface NewVersion {
  status: VersionStatus;
  content: VersionContent;
  changeNotes: string | null;
}

@Injectable()
export class VersionsService {
  constructor(
    private readonly versions: VersionsRepository,
    private readonly tenants: TenantsService,
  ) {}

  /** The tenant's version history limit. Read it before opening the transaction that appends. */
  async historyLimit(tenantId: string): Promise<number | null> {
    const tenant = await this.tenants.getById(tenantId);
    return VERSION_HISTORY_LIMITS[tenant.plan];
  }

  /**
   * Appends version `versionNumber` inside the caller's transaction: 1 for a new prompt, else the prompt's
   * currentVersion + 1. The caller must hold a row lock on the prompt, which serialises appends, so numbers run from 1
   * without gaps; the unique (prompt_id, version_number) backs it up. Versions past the plan's limit are archived,
   * never deleted.
   */
  async append(
    manager: EntityManager,
    tenantId: string,
    promptId: string,
    versionNumber: number,
    version: NewVersion,
    historyLimit: number | null,
  ): Promise<PromptVersionEntity> {
    const saved = await this.versions.insert(manager, tenantId, promptId, versionNumber, {
      ...version.content,
      status: version.status,
      changeNotes: version.changeNotes,
    });
    if (historyLimit !== null && versionNumber > historyLimit) {
      await this.versions.archiveUpTo(manager, tenantId, promptId, versionNumber - historyLimit);
    }
    return saved;
  }

  list(tenantId: string, promptId: string): Promise<PromptVersionEntity[]> {
    return this.versions.list(tenantId, promptId);
  }

  async get(tenantId: string, promptId: string, versionNumber: number): Promise<PromptVersionEntity> {
    const version = await this.versions.find(tenantId, promptId, versionNumber);
    if (!version) throw new NotFoundError(`Version ${versionNumber} of prompt ${promptId} not found`);
    return version;
  }

  async compare(
    tenantId: string,
    promptId: string,
    from: number,
    to: number,
  ): Promise<{ from: PromptVersionEntity; to: PromptVersionEntity; comparison: VersionComparison }> {
    const found = await this.versions.findMany(tenantId, promptId, [from, to]);
    const older = found.find((v) => v.versionNumber === from);
    const newer = found.find((v) => v.versionNumber === to);
    if (!older) throw new NotFoundError(`Version ${from} of prompt ${promptId} not found`);
    if (!newer) throw new NotFoundError(`Version ${to} of prompt ${promptId} not found`);
    return { from: older, to: newer, comparison: compareVersions(older, newer) };
  }
}
