import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppLogger } from '../../common/logging/app-logger';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { DatabaseShutdown } from '../../database/database-shutdown';
import { TransactionHost } from '../../database/transactions';
import { EvalItemService } from './eval-item.service';
import { type ClaimedItem, EvalRunsRepository } from './eval-runs.repository';
import { summaryOf } from './run-report';

/** How often each instance looks for claimable work. */
const POLL_MS = 1000;
/**
 * How long a claim holds: renewed every RENEW_MS while its item runs, so a row whose instance stopped is claimable again
 * at most this long after, and the next poll of another instance takes it over (well within a minute).
 */
export const CLAIM_LEASE_SECONDS = 30;
const RENEW_MS = 10_000;
/** Active runs looked at per poll, oldest first. */
const RUNS_PER_POLL = 50;
/** At shutdown, the items in flight are waited for this long; a row left unfinished is run again by another instance. */
const SHUTDOWN_WAIT_MS = 10_000;

/**
 * The background runner of evaluation runs, on every instance. A run is run by the instance that created it (its
 * owner, a lease renewed every RENEW_MS); work is claimed in the database, row by row (see EvalRunsRepository.claim):
 * with several instances on one PostgreSQL each unit of work runs once, within the run's `concurrency`, and the run
 * and the rows of an instance that stopped are taken over by another once their leases expire (within a minute). Queue libraries (pg-boss, graphile-worker) need a server PostgreSQL and cannot run on the embedded
 * database, so the claims are written by hand, in SQL that both accept. Each instance also holds a tenant's runs to
 * EVAL_MAX_CONCURRENCY calls in flight on it.
 */
@Injectable()
export class EvalRunnerService implements OnApplicationBootstrap {
  /** This process, as the claims name it. */
  readonly instance = randomUUID();
  private readonly running = new Map<string, { tenantId: string; done: Promise<void> }>();
  private readonly perTenant = new Map<string, number>();
  private pollTimer: NodeJS.Timeout | null = null;
  private renewTimer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private pollAgain = false;
  private stopped = false;

  constructor(
    private readonly runs: EvalRunsRepository,
    private readonly items: EvalItemService,
    private readonly txHost: TransactionHost,
    private readonly logger: AppLogger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    shutdown: DatabaseShutdown,
  ) {
    // Runs before the database closes: no new claims, the items in flight finish (or are left to another instance).
    shutdown.beforeClose(() => this.stop());
  }

  onApplicationBootstrap(): void {
    this.pollTimer = setInterval(() => this.wake(), POLL_MS);
    this.pollTimer.unref();
    this.renewTimer = setInterval(() => void this.renew(), RENEW_MS);
    this.renewTimer.unref();
  }

  /** Looks for work now (a run was created, or an item ended and freed a place). */
  wake(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = this.poll()
      .catch((error) =>
        this.logger.write('warn', 'Evaluation runner poll failed', {
          context: 'Evaluations',
          error: (error as Error).message,
        }),
      )
      .finally(() => {
        this.polling = null;
        if (this.pollAgain) {
          this.pollAgain = false;
          this.wake();
        }
      });
  }

  /** Stops claiming, then waits (a bounded time) for the items in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.renewTimer) clearInterval(this.renewTimer);
    await this.polling;
    const inFlight = Promise.allSettled([...this.running.values()].map((entry) => entry.done));
    await Promise.race([inFlight, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref())]);
  }

  private async poll(): Promise<void> {
    const active = await this.runs.activeRuns(RUNS_PER_POLL);
    for (const run of active) {
      if (this.stopped) return;
      const room = this.config.evalMaxConcurrency - (this.perTenant.get(run.tenantId) ?? 0);
      if (room <= 0) continue;
      const claimed = await this.txHost.withTransaction(() =>
        this.runs.claim(run.id, this.instance, room, CLAIM_LEASE_SECONDS),
      );
      for (const item of claimed) this.start(item);
      if (claimed.length === 0) await this.completeIfDone(run.id);
    }
  }

  private start(item: ClaimedItem): void {
    this.perTenant.set(item.tenantId, (this.perTenant.get(item.tenantId) ?? 0) + 1);
    const done = this.runItem(item).finally(() => {
      this.running.delete(item.id);
      const left = (this.perTenant.get(item.tenantId) ?? 1) - 1;
      if (left > 0) this.perTenant.set(item.tenantId, left);
      else this.perTenant.delete(item.tenantId);
      this.wake();
    });
    this.running.set(item.id, { tenantId: item.tenantId, done });
  }

  private async runItem(item: ClaimedItem): Promise<void> {
    try {
      // A run cancelled after the claim starts nothing more.
      if ((await this.runs.statusOf(item.runId)) !== 'running') return;
      const result = await this.items.run(item);
      if (result === 'failed') return;
      if (await this.runs.finish(item.id, this.instance, result)) await this.completeIfDone(item.runId);
    } catch (error) {
      this.logger.write('warn', 'Evaluation item failed to run', {
        context: 'Evaluations',
        runId: item.runId,
        error: (error as Error).message,
      });
    }
  }

  /** Completes the run, with its summary, once every row of it is done (on whichever instance sees it first). */
  private async completeIfDone(runId: string): Promise<void> {
    await this.txHost.withTransaction(async () => {
      const run = await this.runs.lockIfAllDone(runId);
      if (!run) return;
      const found = await this.runs.findRun(run.tenantId, runId);
      const rows = await this.runs.items(run.tenantId, runId);
      await this.runs.complete(runId, summaryOf({ ...found!, finishedAt: null }, rows, new Date()));
    });
  }

  /** Renews the leases of the runs this instance owns and of the rows it is running. */
  private async renew(): Promise<void> {
    await this.runs.renew(this.instance, [...this.running.keys()], CLAIM_LEASE_SECONDS).catch((error) =>
      this.logger.write('warn', 'Evaluation claim renewal failed', {
        context: 'Evaluations',
        error: (error as Error).message,
      }),
    );
  }
}
