import type { Repository } from 'typeorm';
import { unused } from '../../../test/support/unused';
import { AppLogger } from '../../common/logging/app-logger';
import { DatabaseShutdown } from '../../database/database-shutdown';
import type { EndpointsService } from '../endpoints/endpoints.service';
import { InvalidationBus } from '../invalidation/invalidation-bus';
import type { TenantsService } from '../tenants/tenants.service';
import type { ApiKeyEntity } from './api-key.entity';
import { KeysRepository } from './keys.repository';
import { KeysService } from './keys.service';

/** The one repository method a flush uses; fails while `failing` is set, and records each batch it wrote. */
class FakeKeysRepository extends KeysRepository {
  failing = false;
  readonly written: Map<string, Date>[] = [];

  constructor() {
    super(unused<Repository<ApiKeyEntity>>('the TypeORM repository'));
  }

  override async touchLastUsed(times: Map<string, Date>): Promise<void> {
    if (this.failing) throw new Error('connection refused');
    this.written.push(new Map(times));
  }
}

class LocalBus extends InvalidationBus {
  async publish(): Promise<void> {}
  subscribe(): void {}
}

function setup() {
  const repository = new FakeKeysRepository();
  const warnings: string[] = [];
  const logger = new (class extends AppLogger {
    override write(level: string, message: unknown): void {
      if (level === 'warn') warnings.push(String(message));
    }
  })({ logLevel: 'debug' });
  const service = new KeysService(
    repository,
    unused<TenantsService>('tenants'),
    unused<EndpointsService>('endpoints'),
    new LocalBus(),
    new DatabaseShutdown(logger),
    logger,
  );
  // The batch waiting for the next flush, filled directly so each test controls it.
  const pending = service['pendingLastUsed'];
  return { repository, warnings, service, pending };
}

describe('KeysService last-use flush', () => {
  it('keeps a batch the database refused, warns, and writes it with the next flush', async () => {
    const { repository, warnings, service, pending } = setup();
    const first = new Date('2026-01-01T00:00:00Z');
    pending.set('k1', first);
    pending.set('k2', first);
    repository.failing = true;
    await expect(service.flushLastUsed()).resolves.toBeUndefined();
    expect(repository.written).toEqual([]);
    expect(warnings).toEqual([
      expect.stringContaining('Last-use times of 2 keys not written, kept for the next flush'),
    ]);

    // k2 used again meanwhile: its newer time wins over the refused one.
    const later = new Date('2026-01-01T00:00:05Z');
    pending.set('k2', later);
    repository.failing = false;
    await service.flushLastUsed();
    expect(repository.written).toEqual([
      new Map([
        ['k1', first],
        ['k2', later],
      ]),
    ]);
    expect(pending.size).toBe(0);
  });
});
