import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';

/**
 * Ambient transactions: a service runs several steps in one transaction with `TransactionHost#withTransaction`, and
 * every repository queries through `TransactionHost#tx`, which is that transaction while one is open and the plain
 * connection otherwise. Services never see the connection. Inside a transaction every query must go through `tx`:
 * the embedded database has a pool of one connection, so a query on another one would wait for the transaction to end.
 *
 * Services inject the TransactionHost rather than use the `@Transactional()` decorator: the decorator finds its host
 * through a process-wide registry that holds only the last application created, and tests run two in one process.
 */
export function transactionPlugin(): ClsPluginTransactional {
  return new ClsPluginTransactional({
    adapter: new TransactionalAdapterTypeOrm({ dataSourceToken: getDataSourceToken() }),
  });
}
