import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/auth/principal';
import { TransactionHost } from '../../database/transactions';
import { DatasetsService } from '../datasets/datasets.service';
import { EndpointsService } from '../endpoints/endpoints.service';
import { baselineChoiceOf } from './baseline-choice';
import type { CreateEvalRunDto } from './dto/create-eval-run.dto';
import {
  type EvalRunItemResponse,
  type EvalRunResponse,
  toEvalRunItemResponse,
  toEvalRunResponse,
} from './dto/eval-run.response';
import type { EvalRun, EvalSide, PromptVersionRef } from './eval-run';
import { EvalPromptsService } from './eval-prompts.service';
import { CLAIM_LEASE_SECONDS, EvalRunnerService } from './eval-runner.service';
import { EvalRunsRepository } from './eval-runs.repository';
import { EvalRunErrors } from './eval-runs.errors';
import { itemReports, summaryOf } from './run-report';

const DEFAULTS = { concurrency: 4, repeats: 1, fresh: false };
/** The most runs GET /endpoints/{id}/eval-runs lists. */
export const EVAL_RUN_LIST_LIMIT = 100;

/**
 * Evaluation runs: a run is created with every unit of work it holds (item × repeat × side) in one transaction, and
 * the background runner of each instance claims and runs them (see EvalRunnerService).
 */
@Injectable()
export class EvalRunsService {
  constructor(
    private readonly runs: EvalRunsRepository,
    private readonly datasets: DatasetsService,
    private readonly endpoints: EndpointsService,
    private readonly evalPrompts: EvalPromptsService,
    private readonly runner: EvalRunnerService,
    private readonly txHost: TransactionHost,
  ) {}

  /**
   * Starts a run of the dataset at its current version: the candidate prompt version (default: the prompt's current
   * one, Draft prompts included) against the baseline (default: the endpoint's default prompt at its current version,
   * none when it has no default).
   */
  async create(principal: Principal, datasetId: string, dto: CreateEvalRunDto): Promise<EvalRunResponse> {
    const { tenantId } = principal;
    const choice = baselineChoiceOf(dto.baseline);
    if (typeof choice === 'string') throw EvalRunErrors.baselineInvalid(choice);
    const dataset = await this.datasets.findForRun(tenantId, datasetId);
    const candidate = await this.evalPrompts.versionRef(
      tenantId,
      dataset.endpointId,
      'promptId',
      dto.promptId,
      dto.versionNumber,
    );
    let baseline: PromptVersionRef | null = null;
    if (choice.kind === 'version') {
      const { promptId, versionNumber } = choice.version;
      baseline = await this.evalPrompts.versionRef(
        tenantId,
        dataset.endpointId,
        'baseline.promptId',
        promptId,
        versionNumber,
      );
    } else if (choice.kind === 'default') {
      baseline = await this.evalPrompts.defaultVersion(tenantId, dataset.endpointId);
    }
    const items = await this.datasets.itemsAtVersion(tenantId, datasetId, dataset.version);
    if (items.length === 0) throw EvalRunErrors.noItems();
    const repeats = dto.repeats ?? DEFAULTS.repeats;
    const sides: EvalSide[] = baseline ? ['candidate', 'baseline'] : ['candidate'];
    const run = await this.txHost.withTransaction(async () => {
      const created = await this.runs.insertRun(
        tenantId,
        {
          endpointId: dataset.endpointId,
          datasetId,
          datasetVersion: dataset.version,
          keyId: principal.keyId,
          candidate,
          baseline,
          concurrency: dto.concurrency ?? DEFAULTS.concurrency,
          repeats,
          fresh: dto.fresh ?? DEFAULTS.fresh,
        },
        this.runner.instance,
        CLAIM_LEASE_SECONDS,
      );
      const rows = items.flatMap((item, position) =>
        Array.from({ length: repeats }, (_, repeat) =>
          sides.map((side) => ({
            itemId: item.id,
            position,
            repeat,
            side,
            inputs: item.inputs,
            expected: item.expectedOutput,
          })),
        ).flat(),
      );
      await this.runs.insertItems(tenantId, created.id, rows);
      return created;
    });
    this.runner.wake();
    return this.respond(run);
  }

  async get(tenantId: string, id: string): Promise<EvalRunResponse> {
    return this.respond(await this.require(tenantId, id));
  }

  async items(tenantId: string, id: string): Promise<EvalRunItemResponse[]> {
    await this.require(tenantId, id);
    return itemReports(await this.runs.items(tenantId, id)).map(toEvalRunItemResponse);
  }

  /** The endpoint's runs, newest first (at most EVAL_RUN_LIST_LIMIT). */
  async listForEndpoint(tenantId: string, endpointId: string): Promise<EvalRunResponse[]> {
    await this.endpoints.requireActive(tenantId, endpointId);
    const runs = await this.runs.listForEndpoint(tenantId, endpointId, EVAL_RUN_LIST_LIMIT, 0);
    return Promise.all(runs.map((run) => this.respond(run)));
  }

  /** Stops the run at once: no further item of it starts (those in flight finish and are recorded). */
  async cancel(tenantId: string, id: string): Promise<EvalRunResponse> {
    const run = await this.require(tenantId, id);
    if (!(await this.runs.cancel(tenantId, id))) throw EvalRunErrors.alreadyEnded(run.status);
    return this.get(tenantId, id);
  }

  private async require(tenantId: string, id: string): Promise<EvalRun> {
    const run = await this.runs.findRun(tenantId, id);
    if (!run) throw EvalRunErrors.runNotFound(id);
    return run;
  }

  /** The run with its summary: kept once it completed, worked out from its rows before. */
  private async respond(run: EvalRun): Promise<EvalRunResponse> {
    const summary = run.summary ?? summaryOf(run, await this.runs.items(run.tenantId, run.id), new Date());
    return toEvalRunResponse(run, summary);
  }
}
