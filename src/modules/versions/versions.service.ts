import { Injectable } from '@nestjs/common';
import type { Plan } from '../tenants/plans';
import { TenantsService } from '../tenants/tenants.service';
import { type PromptVersion, toPromptVersion, type VersionGate } from './prompt-version';
import type { VersionStatus } from './prompt-version.entity';
import { compareVersions, VersionComparison, VersionContent } from './version-compare';
import { VersionsRepository } from './versions.repository';
import { TransactionHost } from '../../database/transactions';
import { VersionErrors } from './versions.errors';

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
    private readonly txHost: TransactionHost,
  ) {}

  /** The tenant's version history limit. Read it before opening the transaction that appends: its locks are held less. */
  async historyLimit(tenantId: string): Promise<number | null> {
    const tenant = await this.tenants.getById(tenantId);
    return VERSION_HISTORY_LIMITS[tenant.plan];
  }

  /**
   * Appends version `versionNumber` inside the caller's transaction (refused outside one), so the version and the
   * prompt's change are written together or not at all: 1 for a new prompt, else the prompt's currentVersion + 1. The
   * caller must hold a row lock on the prompt, which serialises appends, so numbers run from 1 without gaps; the unique
   * (prompt_id, version_number) backs it up. Versions past the plan's limit are archived, never deleted.
   */
  append(
    tenantId: string,
    promptId: string,
    versionNumber: number,
    version: NewVersion,
    historyLimit: number | null,
  ): Promise<PromptVersion> {
    return this.txHost.withinTransaction(async () => {
      const saved = await this.versions.insert(tenantId, promptId, versionNumber, {
        ...version.content,
        status: version.status,
        changeNotes: version.changeNotes,
      });
      if (historyLimit !== null && versionNumber > historyLimit) {
        await this.versions.archiveUpTo(tenantId, promptId, versionNumber - historyLimit);
      }
      return toPromptVersion(saved);
    });
  }

  /** Records how the version's promotion passed the promotion gate, inside the promotion's transaction. */
  recordGate(tenantId: string, promptId: string, versionNumber: number, gate: VersionGate): Promise<void> {
    return this.txHost.withinTransaction(() => this.versions.setGate(tenantId, promptId, versionNumber, gate));
  }

  async list(tenantId: string, promptId: string): Promise<PromptVersion[]> {
    return (await this.versions.list(tenantId, promptId)).map(toPromptVersion);
  }

  async get(tenantId: string, promptId: string, versionNumber: number): Promise<PromptVersion> {
    const version = await this.versions.find(tenantId, promptId, versionNumber);
    if (!version) throw VersionErrors.versionNotFound(versionNumber, promptId);
    return toPromptVersion(version);
  }

  async compare(
    tenantId: string,
    promptId: string,
    from: number,
    to: number,
  ): Promise<{ from: PromptVersion; to: PromptVersion; comparison: VersionComparison }> {
    const found = await this.versions.findMany(tenantId, promptId, [from, to]);
    const older = found.find((v) => v.versionNumber === from);
    const newer = found.find((v) => v.versionNumber === to);
    if (!older) throw VersionErrors.versionNotFound(from, promptId);
    if (!newer) throw VersionErrors.versionNotFound(to, promptId);
    return { from: toPromptVersion(older), to: toPromptVersion(newer), comparison: compareVersions(older, newer) };
  }
}
