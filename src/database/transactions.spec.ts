import type { DataSource, EntityManager } from 'typeorm';
import { TransactionHost } from './transactions';

/** A data source whose transactions are plain objects, numbered as they open, committed when their work resolves. */
class FakeDataSource {
  readonly manager = { name: 'plain' } as unknown as EntityManager;
  opened = 0;
  committed = 0;

  async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const manager = { name: `transaction ${++this.opened}` } as unknown as EntityManager;
    const result = await work(manager);
    this.committed++;
    return result;
  }
}

const nameOf = (manager: EntityManager) => (manager as unknown as { name: string }).name;

describe('TransactionHost', () => {
  let source: FakeDataSource;
  let host: TransactionHost;

  beforeEach(() => {
    source = new FakeDataSource();
    host = new TransactionHost(source as unknown as DataSource);
  });

  it('is the plain connection outside a transaction, and the transaction inside one, across awaits', async () => {
    expect(nameOf(host.tx)).toBe('plain');
    const seen = await host.withTransaction(async () => {
      const before = nameOf(host.tx);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return [before, nameOf(host.tx)];
    });
    expect(seen).toEqual(['transaction 1', 'transaction 1']);
    expect(nameOf(host.tx)).toBe('plain');
    expect(source.committed).toBe(1);
  });

  it('joins the transaction already open in the same flow instead of opening another', async () => {
    const inner = await host.withTransaction(() => host.withTransaction(async () => nameOf(host.tx)));
    expect(inner).toBe('transaction 1');
    expect(source.opened).toBe(1);
  });

  it('keeps concurrent flows in their own transactions', async () => {
    const flow = (delay: number) =>
      host.withTransaction(async () => {
        const mine = nameOf(host.tx);
        await new Promise((resolve) => setTimeout(resolve, delay));
        return mine === nameOf(host.tx) ? mine : 'crossed';
      });
    const results = await Promise.all([flow(20), flow(5), flow(10)]);
    expect(new Set(results).size).toBe(3);
    expect(results).not.toContain('crossed');
  });

  it("runs a step that needs its caller's transaction only inside one", async () => {
    await expect(host.withinTransaction(async () => 'alone')).rejects.toThrow(
      'This step runs only inside a transaction its caller opened',
    );
    await expect(host.withTransaction(() => host.withinTransaction(async () => nameOf(host.tx)))).resolves.toBe(
      'transaction 1',
    );
  });

  it('leaves no transaction behind when the work fails, and opens a fresh one next time', async () => {
    await expect(host.withTransaction(async () => Promise.reject(new Error('step failed')))).rejects.toThrow(
      'step failed',
    );
    expect(nameOf(host.tx)).toBe('plain');
    await expect(host.withTransaction(async () => nameOf(host.tx))).resolves.toBe('transaction 2');
  });
});
