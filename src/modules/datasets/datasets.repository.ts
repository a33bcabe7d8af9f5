import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { TransactionHost } from '../../database/transactions';
import { DatasetEntity } from './dataset.entity';

export type NewDataset = Pick<DatasetEntity, 'tenantId' | 'endpointId' | 'name' | 'description' | 'checks'>;
export type DatasetChanges = Partial<Pick<DatasetEntity, 'name' | 'description' | 'checks'>>;

@Injectable()
export class DatasetsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  /** The open transaction's, when there is one. */
  private get datasets(): Repository<DatasetEntity> {
    return this.txHost.tx.getRepository(DatasetEntity);
  }

  /** The endpoint's datasets by name (at most MAX_DATASETS_PER_ENDPOINT, so no paging). */
  listByEndpoint(tenantId: string, endpointId: string): Promise<DatasetEntity[]> {
    return this.datasets.find({ where: { tenantId, endpointId }, order: { name: 'ASC' } });
  }

  countByEndpoint(tenantId: string, endpointId: string): Promise<number> {
    return this.datasets.countBy({ tenantId, endpointId });
  }

  /** Inside a transaction: makes the endpoint's dataset creations take turns until it ends (a transaction-level lock). */
  async lockEndpointDatasets(tenantId: string, endpointId: string): Promise<void> {
    await this.datasets.query(`SELECT pg_advisory_xact_lock(hashtextextended('datasets:' || $1 || ':' || $2, 0))`, [
      tenantId,
      endpointId,
    ]);
  }

  findById(tenantId: string, id: string): Promise<DatasetEntity | null> {
    return this.datasets.findOneBy({ tenantId, id });
  }

  findByName(tenantId: string, endpointId: string, name: string): Promise<DatasetEntity | null> {
    return this.datasets.findOneBy({ tenantId, endpointId, name });
  }

  /**
   * Inside a transaction: the dataset, locked for a change (FOR UPDATE) until the transaction ends, so changes of its
   * items take turns and each gets its own version.
   */
  findByIdForChange(tenantId: string, id: string): Promise<DatasetEntity | null> {
    return this.datasets
      .createQueryBuilder('d')
      .where('d.tenant_id = :tenantId AND d.id = :id', { tenantId, id })
      .setLock('pessimistic_write')
      .getOne();
  }

  create(values: NewDataset): Promise<DatasetEntity> {
    return this.datasets.save(this.datasets.create({ ...values, version: 0, itemCount: 0 }));
  }

  async update(tenantId: string, id: string, changes: DatasetChanges): Promise<void> {
    await this.datasets.update({ tenantId, id }, changes);
  }

  /** Records a change of the items: the new version and the number of items at it. */
  async setVersion(tenantId: string, id: string, version: number, itemCount: number): Promise<void> {
    await this.datasets.update({ tenantId, id }, { version, itemCount });
  }

  async delete(tenantId: string, id: string): Promise<void> {
    await this.datasets.delete({ tenantId, id });
  }
}
