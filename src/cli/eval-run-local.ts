import type { INestApplicationContext } from '@nestjs/common';
import type { Principal } from '../common/auth/principal';
import { DatasetsService } from '../modules/datasets/datasets.service';
import { EndpointsService } from '../modules/endpoints/endpoints.service';
import { EvalRunsService } from '../modules/evaluations/eval-runs.service';
import { TenantsService } from '../modules/tenants/tenants.service';
import type { GateView, ItemView, RunView } from './eval-report';
import type { DatasetView, EvalRunSource } from './eval-run';

/** `eval run` on the services of this process (or of the running service, over its control socket). */
export class LocalEvalRunSource implements EvalRunSource {
  private principal: Principal | undefined;

  constructor(private readonly app: INestApplicationContext) {}

  async checkTenant(slug: string): Promise<void> {
    const tenant = await this.app.get(TenantsService).getBySlug(slug);
    // The command line runs as the tenant's operator, with no key: the run records none (its key is nullable).
    this.principal = {
      keyId: null as unknown as string,
      tenantId: tenant.id,
      tenantSlug: tenant.slug,
      type: 'admin',
      permission: 'ReadWrite',
      environment: null,
      endpointIds: null,
      rateLimits: { perMinute: 0, perHour: 0, perDay: 0 },
      defaultTags: {},
    };
  }

  dataset(datasetId: string): Promise<DatasetView> {
    return this.app.get(DatasetsService).get(this.tenantId, datasetId);
  }

  async promotionGate(endpointId: string): Promise<GateView | null> {
    const endpoint = await this.app.get(EndpointsService).get(this.tenantId, endpointId);
    return (endpoint as { promotionGate?: GateView | null }).promotionGate ?? null;
  }

  startRun(
    datasetId: string,
    body: { promptId: string; versionNumber?: number; baseline: 'default' },
  ): Promise<RunView> {
    return this.app.get(EvalRunsService).create(this.principal!, datasetId, body);
  }

  run(runId: string): Promise<RunView> {
    return this.app.get(EvalRunsService).get(this.tenantId, runId);
  }

  items(runId: string): Promise<ItemView[]> {
    return this.app.get(EvalRunsService).items(this.tenantId, runId);
  }

  private get tenantId(): string {
    return this.principal!.tenantId;
  }
}
