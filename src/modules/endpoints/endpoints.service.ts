import { isDeepStrictEqual } from 'node:util';
import { Injectable } from '@nestjs/common';
import { ValidationError } from '../../common/errors/app-error';
import { type Page, pageOf, type PageRequest, pageWindow } from '../../common/http/paging';
import { NO_RATE_LIMITS } from '../../common/rate-limit/rate-limit-settings';
import { InvalidatingCache, InvalidationBus } from '../invalidation/invalidation-bus';
import { ENDPOINT_DELETED_TOPIC, ENDPOINT_TOPIC, TENANT_ENDPOINTS_TOPIC } from '../invalidation/topics';
import { EndpointResponse, toEndpointResponse } from './dto/endpoint.response';
import { type Endpoint, type EndpointDefinition, toEndpoint, toEndpointDefinition } from './endpoint-definition';
import type { EndpointEntity } from './endpoint.entity';
import { EndpointFieldsRepository } from './endpoint-fields.repository';
import { EndpointFilter, EndpointsRepository, EndpointValues } from './endpoints.repository';
import { PromptEventsService } from '../prompt-events/prompt-events.service';
import { GateDatasets } from './gate-datasets';
import { promotionGateOf } from './promotion-gate-settings';
import { SplitPrompts } from './split-prompts';
import { normalizeSplit, splitProblems, type TrafficSplit } from './traffic-split';
import { TransactionHost } from '../../database/transactions';
import { EndpointErrors } from './endpoints.errors';

export type NewEndpoint = Pick<EndpointValues, 'name' | 'path'> & Partial<EndpointValues>;

/** An update: any of the settings, and the traffic split (null removes it). */
export type EndpointChanges = Omit<Partial<EndpointValues>, 'promotionGate'> & {
  trafficSplit?: TrafficSplit | null;
  promotionGate?: { datasetId: string; minPassRate?: number; maxRegressions?: number } | null;
};

/** A warm instance answers execution without a database round trip for the endpoint: execution's hot path. */
const DEFINITION_CACHE = { max: 10_000, ttlMs: 10 * 60_000 };
/** The tenants whose whole list of definitions is kept (read by the tenant's OpenAPI document). */
const TENANT_DEFINITIONS_CACHE = { max: 1_000, ttlMs: 10 * 60_000 };

/** A tenant's endpoints that are not soft-deleted, with their fields, in path order. */
export interface TenantDefinitions {
  tenantId: string;
  definitions: readonly EndpointDefinition[];
}

const DEFAULTS: Omit<EndpointValues, 'name' | 'path'> = {
  description: '',
  visibility: 'Public',
  category: null,
  cacheEnabled: false,
  cacheDurationSeconds: 300,
  ...NO_RATE_LIMITS,
  timeoutSeconds: 60,
  promotionGate: null,
};

@Injectable()
export class EndpointsService {
  /** Execution's lookup by path, kept in memory and dropped on every instance when the endpoint changes. */
  private readonly definitions: InvalidatingCache<EndpointDefinition>;
  /** Every active definition of a tenant, dropped on every instance when one of its endpoints or fields changes. */
  private readonly tenantDefinitions: InvalidatingCache<TenantDefinitions>;

  constructor(
    private readonly endpoints: EndpointsRepository,
    private readonly fields: EndpointFieldsRepository,
    private readonly bus: InvalidationBus,
    private readonly splitPrompts: SplitPrompts,
    private readonly gateDatasets: GateDatasets,
    private readonly txHost: TransactionHost,
    private readonly events: PromptEventsService,
  ) {
    this.definitions = new InvalidatingCache<EndpointDefinition>(
      bus,
      ENDPOINT_TOPIC,
      (d) => d.endpoint.id,
      DEFINITION_CACHE,
    );
    this.tenantDefinitions = new InvalidatingCache<TenantDefinitions>(
      bus,
      TENANT_ENDPOINTS_TOPIC,
      (d) => d.tenantId,
      TENANT_DEFINITIONS_CACHE,
    );
  }

  /** A page of the tenant's endpoints, oldest first, with their fields. */
  async list(tenantId: string, filter: EndpointFilter & PageRequest): Promise<Page<EndpointResponse>> {
    const window = pageWindow(filter);
    const page = pageOf(await this.endpoints.list(tenantId, filter, window.offset, window.limit), window);
    return { ...page, items: await this.withFields(tenantId, page.items) };
  }

  async get(tenantId: string, id: string): Promise<EndpointResponse> {
    const [response] = await this.withFields(tenantId, [await this.requireActiveEntity(tenantId, id)]);
    return response;
  }

  /** An endpoint that is not soft-deleted, with its fields; NotFoundError otherwise (also for another tenant's id). */
  async getDefinition(tenantId: string, id: string): Promise<EndpointDefinition> {
    return this.definitionOf(tenantId, await this.requireActiveEntity(tenantId, id));
  }

  /** Execution: the endpoint at `path` that is not soft-deleted, with its fields; null when there is none. */
  findDefinitionByPath(tenantId: string, path: string): Promise<EndpointDefinition | null> {
    return this.definitions.getOrLoad(`${tenantId}\n${path}`, async () => {
      const endpoint = await this.endpoints.findActiveByPath(tenantId, path);
      return endpoint ? this.definitionOf(tenantId, endpoint) : null;
    });
  }

  /**
   * The tenant's endpoints that are not soft-deleted, with their fields, in path order. The same object is answered
   * until one of them changes, so a reader may keep what it derives from it for as long as it gets the same object.
   */
  async activeDefinitions(tenantId: string): Promise<TenantDefinitions> {
    const loaded = await this.tenantDefinitions.getOrLoad(tenantId, async () => {
      const endpoints = await this.endpoints.listActive(tenantId);
      const ids = endpoints.map((e) => e.id);
      const [inputs, outputs] = await Promise.all([
        this.fields.inputFieldsOf(tenantId, ids),
        this.fields.outputFieldsOf(tenantId, ids),
      ]);
      const definitions = endpoints.map((e) =>
        toEndpointDefinition(
          e,
          inputs.filter((f) => f.endpointId === e.id),
          outputs.filter((f) => f.endpointId === e.id),
        ),
      );
      return { tenantId, definitions };
    });
    return loaded ?? { tenantId, definitions: [] };
  }

  /**
   * Announces, after the change is committed, that an endpoint's own definition (its settings or fields), or the set
   * of the tenant's endpoints, changed: what notifyChanged drops, and the tenant's cached list of definitions.
   */
  async notifyDefinitionChanged(tenantId: string, endpointId: string): Promise<void> {
    await this.notifyChanged(endpointId);
    await this.bus.publish(TENANT_ENDPOINTS_TOPIC, tenantId);
  }

  /**
   * Announces, after the change is committed, that an endpoint, one of its fields, its default or one of its prompts
   * changed: every instance drops what it keeps in memory for that endpoint (definitions here, resolved prompts in
   * the prompts module).
   */
  notifyChanged(endpointId: string): Promise<void> {
    return this.bus.publish(ENDPOINT_TOPIC, endpointId);
  }

  async create(tenantId: string, input: NewEndpoint): Promise<EndpointResponse> {
    await this.ensurePathFree(tenantId, input.path);
    const endpoint = await this.endpoints.create(tenantId, {
      ...DEFAULTS,
      ...stripUndefined(input),
      name: input.name,
      path: input.path,
    });
    await this.notifyDefinitionChanged(tenantId, endpoint.id);
    return toEndpointResponse(endpoint, [], []);
  }

  /**
   * A change of the traffic split is made under the endpoint's row lock and recorded in the endpoint's history
   * (`split_changed`, with the new split, the previous one and the endpoint's default, which answers every call
   * without `?prompt=` when there is no split) in the same transaction; `keyId` is the key making it.
   */
  async update(
    tenantId: string,
    id: string,
    changes: EndpointChanges,
    keyId: string | null,
  ): Promise<EndpointResponse> {
    const { trafficSplit, promotionGate, ...settings } = changes;
    const split = trafficSplit ? normalizeSplit(trafficSplit) : trafficSplit;
    if (split) assertSplitShape(split);
    const endpoint = await this.requireActiveEntity(tenantId, id);
    const values: Partial<EndpointValues> = stripUndefined(settings);
    if (promotionGate) await this.assertGateDataset(tenantId, id, promotionGate.datasetId);
    if (promotionGate !== undefined) values.promotionGate = promotionGateOf(promotionGate);
    if (values.path !== undefined && values.path !== endpoint.path) await this.ensurePathFree(tenantId, values.path);
    if (split !== undefined) {
      await this.txHost.withTransaction(async () => {
        const { trafficSplit: previous, defaultPromptId } = await this.lockForDefaultChange(tenantId, id);
        if (split) await this.assertSplitPrompts(tenantId, id, split);
        await this.endpoints.setTrafficSplit(tenantId, id, split);
        if (!isDeepStrictEqual(previous, split)) {
          await this.events.record(tenantId, {
            type: 'split_changed',
            endpointId: id,
            promptId: null,
            versionNumber: null,
            keyId,
            details: { trafficSplit: split, previous, defaultPromptId },
          });
        }
        if (Object.keys(values).length > 0) await this.endpoints.update(tenantId, id, values);
      });
      await this.notifyChanged(id);
    } else if (Object.keys(values).length > 0) {
      await this.endpoints.update(tenantId, id, values);
      await this.notifyDefinitionChanged(tenantId, id);
    }
    return this.get(tenantId, id);
  }

  /** A promotion gate names a dataset of the endpoint: any other id is a 400 naming `promotionGate.datasetId`. */
  private async assertGateDataset(tenantId: string, endpointId: string, datasetId: string): Promise<void> {
    if (!(await this.gateDatasets.isDatasetOf(tenantId, endpointId, datasetId))) {
      throw new ValidationError(
        `promotionGate.datasetId: no dataset ${datasetId} on this endpoint`,
        'promotionGate.datasetId',
      );
    }
  }

  /**
   * Each variant of a split must be a Live prompt of this endpoint: an id of no prompt of it (another endpoint's,
   * another tenant's, none at all) is a 400 naming the variant; a prompt of it that is not Live is a 409, as setting
   * a prompt that is not Live as the default is. Runs under the endpoint's row lock.
   */
  private async assertSplitPrompts(tenantId: string, endpointId: string, split: TrafficSplit): Promise<void> {
    const ids = split.variants.map((variant) => variant.promptId);
    const prompts = await this.splitPrompts.promptsOf(tenantId, endpointId, ids);
    const unknown = ids.flatMap((promptId, index) =>
      prompts.has(promptId) ? [] : [`trafficSplit.variants.${index}.promptId: no prompt ${promptId} on this endpoint`],
    );
    if (unknown.length > 0) throw new ValidationError(unknown, 'trafficSplit');
    ids.forEach((promptId, index) => {
      const prompt = prompts.get(promptId)!;
      if (prompt.status !== 'Live') {
        throw EndpointErrors.splitPromptNotLive(index, prompt.name, prompt.status);
      }
    });
  }

  /** A soft delete stops listing and execution and frees the path. */
  async softDelete(tenantId: string, id: string): Promise<void> {
    await this.requireActiveEntity(tenantId, id);
    await this.endpoints.update(tenantId, id, { deletedAt: new Date() });
    await this.notifyDefinitionChanged(tenantId, id);
  }

  async deletePermanently(tenantId: string, id: string): Promise<void> {
    const endpoint = await this.endpoints.findAny(tenantId, id);
    if (!endpoint) throw EndpointErrors.endpointNotFound(id);
    await this.endpoints.deletePermanently(tenantId, id);
    await this.notifyDefinitionChanged(tenantId, id);
    // Its cached responses go too (the response cache listens, on every instance).
    await this.bus.publish(ENDPOINT_DELETED_TOPIC, id);
  }

  async restore(tenantId: string, id: string): Promise<EndpointResponse> {
    const endpoint = await this.endpoints.findAny(tenantId, id);
    if (!endpoint) throw EndpointErrors.endpointNotFound(id);
    if (!endpoint.deletedAt) throw EndpointErrors.endpointNotDeleted(id);
    await this.ensurePathFree(tenantId, endpoint.path);
    await this.endpoints.update(tenantId, id, { deletedAt: null });
    await this.notifyDefinitionChanged(tenantId, id);
    return this.get(tenantId, id);
  }

  existingIds(tenantId: string, ids: string[]): Promise<string[]> {
    return this.endpoints.existingIds(tenantId, ids);
  }

  /** An endpoint that is not soft-deleted; NotFoundError otherwise (also for another tenant's id). */
  async requireActive(tenantId: string, id: string): Promise<Endpoint> {
    return toEndpoint(await this.requireActiveEntity(tenantId, id));
  }

  /**
   * For a change of the default prompt inside the caller's transaction (the prompts module): the active endpoint,
   * row-locked until that transaction ends so that default changes of one endpoint serialise; NotFoundError otherwise.
   */
  async lockForDefaultChange(tenantId: string, id: string): Promise<Endpoint> {
    const endpoint = await this.endpoints.lockActive(tenantId, id);
    if (!endpoint) throw EndpointErrors.endpointNotFound(id);
    return toEndpoint(endpoint);
  }

  /**
   * For an addition of a field inside the caller's transaction: the active endpoint's row lock until that transaction
   * ends, so that additions to one endpoint serialise and its field count is exact; NotFoundError otherwise.
   */
  async lockForFieldChange(tenantId: string, id: string): Promise<void> {
    if (!(await this.endpoints.lockActive(tenantId, id))) throw EndpointErrors.endpointNotFound(id);
  }

  /**
   * Sets (null clears) the default prompt, inside the caller's transaction that holds the row lock of
   * lockForDefaultChange; the database accepts only one of the endpoint's prompts.
   */
  setDefaultPrompt(tenantId: string, endpointId: string, promptId: string | null): Promise<void> {
    return this.endpoints.setDefaultPrompt(tenantId, endpointId, promptId);
  }

  private async requireActiveEntity(tenantId: string, id: string): Promise<EndpointEntity> {
    const endpoint = await this.endpoints.findActive(tenantId, id);
    if (!endpoint) throw EndpointErrors.endpointNotFound(id);
    return endpoint;
  }

  private async definitionOf(tenantId: string, endpoint: EndpointEntity): Promise<EndpointDefinition> {
    const [inputFields, outputFields] = await Promise.all([
      this.fields.inputFieldsOf(tenantId, [endpoint.id]),
      this.fields.outputFieldsOf(tenantId, [endpoint.id]),
    ]);
    return toEndpointDefinition(endpoint, inputFields, outputFields);
  }

  private async ensurePathFree(tenantId: string, path: string): Promise<void> {
    if (await this.endpoints.findActiveByPath(tenantId, path)) {
      throw EndpointErrors.pathTaken(path);
    }
  }

  private async withFields(tenantId: string, endpoints: EndpointEntity[]): Promise<EndpointResponse[]> {
    const ids = endpoints.map((e) => e.id);
    const [inputs, outputs] = await Promise.all([
      this.fields.inputFieldsOf(tenantId, ids),
      this.fields.outputFieldsOf(tenantId, ids),
    ]);
    return endpoints.map((e) =>
      toEndpointResponse(
        e,
        inputs.filter((f) => f.endpointId === e.id),
        outputs.filter((f) => f.endpointId === e.id),
      ),
    );
  }
}

/** 400 naming each field when the weights do not sum to 100 or a prompt is listed twice. */
function assertSplitShape(split: TrafficSplit): void {
  const problems = splitProblems(split);
  if (problems.length > 0) {
    throw new ValidationError(
      problems.map((problem) => problem.message),
      problems[0].field,
    );
  }
}

export function stripUndefined<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
