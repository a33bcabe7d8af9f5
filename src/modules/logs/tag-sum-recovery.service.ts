import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { isDatabaseUnavailable } from '../../common/errors/database-unavailable';
import { AppLogger } from '../../common/logging/app-logger';
import { TagSumWindowsRepository } from './tag-sum-windows.repository';

/** A window no batch has joined for this long is taken as abandoned: its writer stopped before writing its sums. */
export const ABANDONED_AFTER_MS = 2 * 60_000;
const SWEEP_EVERY_MS = 30_000;
/** Summed windows are forgotten after this long (see TagSumWindowsRepository.forgetSummed). */
const FORGET_AFTER_MS = 24 * 60 * 60_000;
/** Windows looked up at a time (each one's rows are read: a few seconds of one writer's rows of one tenant at most). */
const WINDOWS_PER_READ = 200;

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
    // An unreachable database has its own throttled warning; the sweep tries again on its next turn.
    this.timer = setInterval(() => {
      this.sweep().catch((error) => {
        if (!isDatabaseUnavailable(error))
          this.logger.write('warn', 'Summing abandoned tag sums failed; will retry', {
            error: (error as Error).message,
          });
      });
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
    // Until none is left but those that failed in this sweep (each is tried once; another instance may claim it first).
    const failed = new Set<string>();
    for (;;) {
      const windows = (await this.windows.abandoned(abandonedAfterMs, WINDOWS_PER_READ + failed.size)).filter(
        (window) => !failed.has(`${window.id}|${window.tenantId}`),
      );
      if (windows.length === 0) break;
      for (const window of windows) {
        try {
          rows += await this.windows.sumFromRows(window.id, {
            tenantId: window.tenantId,
            untouchedForMs: abandonedAfterMs,
          });
        } catch (error) {
          if (isDatabaseUnavailable(error)) throw error;
          failed.add(`${window.id}|${window.tenantId}`);
          this.logger.write('warn', 'Summing an abandoned window of tag sums failed; will retry', {
            error: (error as Error).message,
          });
        }
      }
    }
    await this.windows.forgetSummed(FORGET_AFTER_MS);
    if (rows > 0) this.logger.write('info', 'Summed the tag rollups of abandoned windows from their rows', { rows });
    return rows;
  }
}
