/**
 * The port through which the endpoints module checks that a promotion gate names a dataset of the endpoint. The
 * datasets module provides it (datasets belong to endpoints, so the endpoints module cannot import them).
 */
export abstract class GateDatasets {
  /** Whether `datasetId` is a dataset of the endpoint (another endpoint's, another tenant's or none: false). */
  abstract isDatasetOf(tenantId: string, endpointId: string, datasetId: string): Promise<boolean>;
}
