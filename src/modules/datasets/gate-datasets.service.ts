import { Injectable } from '@nestjs/common';
import { GateDatasets } from '../endpoints/gate-datasets';
import { DatasetsRepository } from './datasets.repository';

/**
 * The endpoints' GateDatasets port: whether a promotion gate's dataset is one of the endpoint's. It reads the datasets
 * alone (the endpoints service, which asks, is not among what it needs).
 */
@Injectable()
export class GateDatasetsService extends GateDatasets {
  constructor(private readonly datasets: DatasetsRepository) {
    super();
  }

  async isDatasetOf(tenantId: string, endpointId: string, datasetId: string): Promise<boolean> {
    const dataset = await this.datasets.findById(tenantId, datasetId);
    return dataset?.endpointId === endpointId;
  }
}
