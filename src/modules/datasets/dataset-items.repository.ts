import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Repository, type SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { TransactionHost } from '../../database/transactions';
import { DatasetItemEntity } from './dataset-item.entity';
import type { ItemContent } from './dataset-rules';

@Injectable()
export class DatasetItemsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  /** The open transaction's, when there is one. */
  private get items(): Repository<DatasetItemEntity> {
    return this.txHost.tx.getRepository(DatasetItemEntity);
  }

  /** Adds the items, in order, as part of `version`; answers their ids in the same order. */
  async insert(tenantId: string, datasetId: string, version: number, contents: ItemContent[]): Promise<string[]> {
    const rows = contents.map((content, ordinal) => ({
      id: randomUUID(),
      tenantId,
      datasetId,
      inputs: content.inputs,
      expectedOutput: content.expectedOutput ?? null,
      tags: content.tags,
      addedInVersion: version,
      ordinal,
      removedInVersion: null,
    }));
    // The JSON columns take any value; TypeORM's partial type reads a Record column as a nested entity.
    await this.items.insert(rows as QueryDeepPartialEntity<DatasetItemEntity>[]);
    return rows.map((row) => row.id);
  }

  /** A page of the items of `version`, in the order they were added. */
  pageAt(
    tenantId: string,
    datasetId: string,
    version: number,
    offset: number,
    limit: number,
  ): Promise<DatasetItemEntity[]> {
    return this.at(tenantId, datasetId, version).offset(offset).limit(limit).getMany();
  }

  /** Every item of `version` (at most MAX_DATASET_ITEMS), in the order they were added. */
  allAt(tenantId: string, datasetId: string, version: number): Promise<DatasetItemEntity[]> {
    return this.at(tenantId, datasetId, version).getMany();
  }

  /** The item when it is part of `version`. */
  findAt(tenantId: string, datasetId: string, id: string, version: number): Promise<DatasetItemEntity | null> {
    return this.at(tenantId, datasetId, version).andWhere('i.id = :id', { id }).getOne();
  }

  /** Removes the item from `version` on (the row stays for the versions before). */
  async removeFrom(tenantId: string, id: string, version: number): Promise<void> {
    await this.items.update({ tenantId, id }, { removedInVersion: version });
  }

  private at(tenantId: string, datasetId: string, version: number): SelectQueryBuilder<DatasetItemEntity> {
    return this.items
      .createQueryBuilder('i')
      .where('i.tenant_id = :tenantId AND i.dataset_id = :datasetId', { tenantId, datasetId })
      .andWhere('i.added_in_version <= :version', { version })
      .andWhere('(i.removed_in_version IS NULL OR i.removed_in_version > :version)', { version })
      .orderBy('i.addedInVersion', 'ASC')
      .addOrderBy('i.ordinal', 'ASC');
  }
}
