import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * Ambient transactions: a service runs several steps in one transaction with `withTransaction`, and every repository
 * queries through `tx`, which is that transaction while one is open in the current async flow and the plain
 * connection otherwise. Services never see the connection. Inside a transaction every query must go through `tx`:
 * the embedded database has a pool of one connection, so a query on another one would wait for the transaction to end.
 *
 * The open transaction travels with the async flow in an AsyncLocalStorage that is enabled only while a transaction
 * is open. On Node 20 an enabled AsyncLocalStorage installs promise hooks that every request pays for (measured: about
 * a tenth of cache-hit throughput), and executions never open a transaction; so the storage is disabled again when
 * the last open transaction ends, and requests that write nothing pay nothing.
 */
@Injectable()
export class TransactionHost {
  private readonly current = new AsyncLocalStorage<EntityManager>();
  private open = 0;

  constructor(private readonly dataSource: DataSource) {}

  /** The open transaction of this async flow, else the data source's own manager. */
  get tx(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
  }

  /** Runs `work` in a transaction: the one already open in this async flow, or a new one committed when it resolves. */
  async withTransaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    this.open++;
    try {
      return await this.dataSource.transaction((manager) => this.current.run(manager, work));
    } finally {
      if (--this.open === 0) this.current.disable();
    }
  }

  /** Runs `work` inside the transaction its caller opened; refused when none is open (a step that must not stand alone). */
  async withinTransaction<T>(work: () => Promise<T>): Promise<T> {
    if (!this.current.getStore()) throw new Error('This step runs only inside a transaction its caller opened');
    return work();
  }
}
