import { Injectable } from '@nestjs/common';
import { AppLogger } from '../common/logging/app-logger';

/**
 * Work that needs the database at shutdown (final flushes of buffered writes). The database module closes the
 * connection in its own shutdown hook, after the HTTP server has stopped and every request in flight has finished, and
 * only once each task registered here has settled, whichever order Nest runs the modules' hooks in.
 */
@Injectable()
export class DatabaseShutdown {
  private readonly tasks: (() => Promise<void>)[] = [];

  constructor(private readonly logger: AppLogger) {}

  /** Runs `task` at shutdown, while the database is still open. */
  beforeClose(task: () => Promise<void>): void {
    this.tasks.push(task);
  }

  /** Called by the database module just before it closes the connection: every task runs, whichever fails. */
  async runTasks(): Promise<void> {
    const results = await Promise.allSettled(this.tasks.map((task) => task()));
    for (const result of results) {
      if (result.status === 'rejected')
        this.logger.write('error', 'A shutdown task failed', { context: 'Database', error: String(result.reason) });
    }
  }
}
