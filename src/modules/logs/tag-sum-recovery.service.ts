import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppLogger } from '../../common/logging/app-logger';
import { TagSumWindowsRepository } from './tag-sum-windows.repository';

/** A window no batch has joined for this long is taken as abandoned: its writer stopped before writing its sums. */
export const ABANDONED_AFTER_MS = 2 * 60_000;
const SWEEP_EVERY_MS = 30_000;
/** Summed windows are forgotten after this long (none of their rows can join them again). */
const FORGET_AFTER_MS = 60 * 60_000;
/** Windows summed per sweep at most (each one's rows are read: a few seconds of one writer's rows at most). */
const WINDOWS_PER_SWEEP = 50;

/**
 * Sums the tag rollups of abandoned windows from their rows: those of an instance that stopped (or lost the database)
 * before writing its windows' sums. Any instance may sum a window; each is summed once, by whoever claims it first.
 */
@Injectable()
export class TagSumRecoveryService implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<number> | null = null;

  constructor(
    private readonly windows: TagSumWindowsRepository,
    private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.sweep().catch((error) =>
        this.logger.write('warn', 'Summing abandoned tag sums failed; will retry', {
          error: (error as Error).message,
        }),
      );
    }, SWEEP_EVERY_MS).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sweeping?.catch(() => undefined);
  }

  /** Sums the windows abandoned for `abandonedAfterMs`; returns how many rows it summed. One sweep at a time. */
  sweep(abandonedAfterMs = ABANDONED_AFTER_MS): Promise<number> {
    this.sweeping ??= this.sumAbandoned(abandonedAfterMs).finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async sumAbandoned(abandonedAfterMs: number): Promise<number> {
    let rows = 0;
    for (const window of await this.windows.abandoned(abandonedAfterMs, WINDOWS_PER_SWEEP))
      rows += await this.windows.sumFromRows(window.id, {
        tenantId: window.tenantId,
        untouchedForMs: abandonedAfterMs,
      });
    await this.windows.forgetSummed(FORGET_AFTER_MS);
    if (rows > 0) this.logger.write('info', 'Summed the tag rollups of abandoned windows from their rows', { rows });
    return rows;
  }
}
