import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppLogger } from '../../common/logging/app-logger';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { TransactionHost } from '../../database/transactions';
import { ExecutionLogRollupsRepository } from './execution-log-rollups.repository';
import { ExecutionLogsRepository } from './execution-logs.repository';
import { ScoreStatsService } from '../scores/score-stats.service';

const BATCH = 1000;
/** Pause between batches, so a large first sweep never holds the table or the pool for long. */
const PAUSE_MS = 50;
const FIRST_SWEEP_MS = 60_000;
const SWEEP_EVERY_MS = 60 * 60_000;
const HOUR_MS = 3_600_000;
/** pg_try_advisory_xact_lock key: one instance sweeps at a time on PostgreSQL. */
const RETENTION_LOCK_ID = 7_346_519_006;

/**
 * LOG_RETENTION_DAYS (default 30): removes older execution logs in the background, in small batches. The cutoff is a
 * whole UTC hour, so an hour's rollups (the executions' and their scores') go exactly when the last of its rows does:
 * with the sweep's last batch, in its transaction.
 */
@Injectable()
export class LogRetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private sweeping: Promise<number> | null = null;

  constructor(
    private readonly logs: ExecutionLogsRepository,
    private readonly rollups: ExecutionLogRollupsRepository,
    private readonly scores: ScoreStatsService,
    private readonly transactions: TransactionHost,
    private readonly logger: AppLogger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.plan(FIRST_SWEEP_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.sweeping?.catch(() => undefined);
  }

  /** Deletes the logs older than the retention period; returns how many. Runs one sweep at a time. */
  sweep(now = new Date()): Promise<number> {
    this.sweeping ??= this.deleteOld(now).finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private plan(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.sweep()
        .catch((error) =>
          this.logger.write('warn', 'Execution log retention sweep failed', { error: (error as Error).message }),
        )
        .finally(() => this.plan(SWEEP_EVERY_MS));
    }, delayMs);
    this.timer.unref();
  }

  private async deleteOld(now: Date): Promise<number> {
    const cutoff = new Date(
      Math.floor((now.getTime() - this.config.logRetentionDays * 86_400_000) / HOUR_MS) * HOUR_MS,
    );
    let total = 0;
    while (!this.stopped) {
      const deleted = await this.transactions.withTransaction(async () => {
        const count = await this.logs.deleteOlderThan(cutoff, BATCH, RETENTION_LOCK_ID);
        if (count !== null && count < BATCH) {
          await this.rollups.deleteBefore(cutoff);
          // The scores of the deleted logs went with them; so do their hours' sums.
          await this.scores.deleteRollupsBefore(cutoff);
        }
        return count;
      });
      if (deleted === null) break; // another instance is sweeping
      total += deleted;
      if (deleted < BATCH) break;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
    if (total > 0)
      this.logger.write('info', 'Execution log retention removed old logs', {
        deleted: total,
        olderThan: cutoff.toISOString(),
      });
    return total;
  }
}
