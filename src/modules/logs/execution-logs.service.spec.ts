import { newLogEntry } from '../../../test/support/log-entries';
import { unused } from '../../../test/support/unused';
import type { AppConfig } from '../../config/app-config';
import { AppLogger } from '../../common/logging/app-logger';
import { SYSTEM_CLOCK } from '../../common/time/clock';
import { DatabaseShutdown } from '../../database/database-shutdown';
import type { TransactionHost } from '../../database/transactions';
import { ExecutionLogsRepository } from './execution-logs.repository';
import type { PreparedLog } from './log-row';
import type { TaggedRows } from './log-rollup';
import type { TagSumWindowsRepository } from './tag-sum-windows.repository';
import { ExecutionLogsService } from './execution-logs.service';

/** A repository whose inserts succeed, fail or hang as the test says. */
class FakeRepository extends ExecutionLogsRepository {
  stored: PreparedLog[] = [];
  mode: 'up' | 'down' | 'hanging' = 'up';

  constructor() {
    super(unused<TransactionHost>('the transaction host'));
  }

  override async insertBatch(rows: PreparedLog[]): Promise<TaggedRows> {
    if (this.mode === 'down') throw new Error('connection refused');
    if (this.mode === 'hanging') await new Promise((resolve) => setTimeout(resolve, 5000).unref());
    this.stored.push(...rows);
    return [];
  }
}

const ENTRY = newLogEntry({ createdAt: new Date() });

describe('ExecutionLogsService.record and flushWithin', () => {
  let repository: FakeRepository;
  let service: ExecutionLogsService;

  beforeEach(() => {
    repository = new FakeRepository();
    const logger = new AppLogger({ logLevel: 'silent' });
    service = new ExecutionLogsService(
      repository,
      unused<TagSumWindowsRepository>('the tag sum windows (these rows have no tags)'),
      logger,
      { logFieldMaxBytes: 65_536 } as AppConfig,
      new DatabaseShutdown(logger),
      SYSTEM_CLOCK,
    );
  });

  it('record returns the id the row is stored under; flushWithin stores it now', async () => {
    const id = service.record(ENTRY);
    expect(repository.stored).toHaveLength(0);
    await expect(service.flushWithin(1000)).resolves.toBe(true);
    expect(repository.stored.map((row) => row.id)).toEqual([id]);
  });

  it('answers false at once when the write fails, the row staying queued for the retry', async () => {
    repository.mode = 'down';
    service.record(ENTRY);
    await expect(service.flushWithin(1000)).resolves.toBe(false);
    expect(service.writerState().queued).toBe(1);
  });

  it('answers false after the wait when the database hangs', async () => {
    repository.mode = 'hanging';
    service.record(ENTRY);
    const started = Date.now();
    await expect(service.flushWithin(50)).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
