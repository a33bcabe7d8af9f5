import { Injectable } from '@nestjs/common';
import { DatasetItemsService } from '../../datasets/dataset-items.service';
import { DatasetsService } from '../../datasets/datasets.service';
import { AddDatasetItemsDto } from '../../datasets/dto/dataset-item.dto';
import { CreateEvalRunDto } from '../../evaluations/dto/create-eval-run.dto';
import type { EvalRunItemResponse, EvalSideResponse } from '../../evaluations/dto/eval-run.response';
import { EvalRunsService } from '../../evaluations/eval-runs.service';
import { GetEvaluationRunDto } from '../dto/get-evaluation-run.dto';
import { defineTool, McpTool, McpToolGroup, uuidId } from '../mcp-tool';

/** How many regressed items get_evaluation_run answers at most (the summary counts them all). */
export const MAX_REGRESSED_ITEMS = 50;

/**
 * Datasets and evaluation runs: an endpoint's datasets, adding items, starting a run and reading it (the same
 * services and DTOs as REST). There is no tool to force a promotion past a gate: promote_prompt takes no `force`.
 */
@Injectable()
export class EvaluationTools extends McpToolGroup {
  readonly toolset = 'evaluations';

  constructor(
    private readonly datasets: DatasetsService,
    private readonly items: DatasetItemsService,
    private readonly runs: EvalRunsService,
  ) {
    super();
  }

  tools(): McpTool[] {
    return [
      defineTool({
        name: 'list_datasets',
        title: "List an endpoint's datasets",
        description:
          "An endpoint's datasets (test inputs and the checks run on each output), by name, each with its version and " +
          'itemCount. A run of a dataset (run_evaluation) compares a prompt version with a baseline on its items.',
        access: 'read',
        ids: { endpointId: uuidId('Endpoint id (uuid)') },
        output: 'list',
        run: ({ principal, ids }) => this.datasets.list(principal.tenantId, ids.endpointId),
      }),
      defineTool({
        name: 'add_dataset_items',
        title: 'Add items to a dataset',
        description:
          'Adds 1 to 500 items, all or none, as the next version of the dataset: inputs (an execution body of its ' +
          'endpoint), optional expectedOutput (any JSON, compared by equals and field_equals checks) and tags. ' +
          'The result is {"itemIds": [...], "version", "itemCount"}.',
        access: 'write',
        ids: { datasetId: uuidId('Dataset id (uuid)') },
        input: AddDatasetItemsDto,
        output: 'object',
        run: ({ principal, ids, input }) => this.items.add(principal.tenantId, ids.datasetId, input),
      }),
      defineTool({
        name: 'run_evaluation',
        title: 'Run a dataset against a prompt version',
        description:
          'Starts a run of the dataset at its current version: the candidate (promptId, versionNumber default its ' +
          'current one, Draft prompts included) and the baseline ("default": the endpoint\'s default prompt, "none", ' +
          'or {promptId, versionNumber}) run on every item, in the background. The result is the run, queued; ' +
          'follow it with get_evaluation_run.',
        access: 'write',
        ids: { datasetId: uuidId('Dataset id (uuid)') },
        input: CreateEvalRunDto,
        output: 'object',
        run: ({ principal, ids, input }) => this.runs.create(principal, ids.datasetId, input),
      }),
      defineTool({
        name: 'get_evaluation_run',
        title: 'Get an evaluation run',
        description:
          'A run: status (queued, running, completed, failed, cancelled) and summary (items, passed, failed, passRate, ' +
          'baselinePassRate, regressions, improvements, costUsd, durationMs). With regressedItems: true, also ' +
          `"regressedItems": the first ${MAX_REGRESSED_ITEMS} items the baseline passes and the candidate fails, ` +
          "each with its inputs and both sides' output and failed checks.",
        access: 'read',
        ids: { id: uuidId('Run id (uuid)') },
        input: GetEvaluationRunDto,
        output: 'object',
        run: async ({ principal, ids, input }) => {
          const run = await this.runs.get(principal.tenantId, ids.id);
          if (!input.regressedItems) return run;
          const items = await this.runs.items(principal.tenantId, ids.id);
          const regressed = items.filter((item) => item.verdict === 'regressed').slice(0, MAX_REGRESSED_ITEMS);
          return { ...run, regressedItems: regressed.map(regressedItem) };
        },
      }),
    ];
  }
}

/** A regressed item as get_evaluation_run answers it: what it asked, and what each side answered and failed. */
function regressedItem(item: EvalRunItemResponse) {
  return {
    itemId: item.itemId,
    position: item.position,
    inputs: item.inputs,
    expectedOutput: item.expectedOutput,
    candidate: sideOf(item.candidate),
    baseline: item.baseline ? sideOf(item.baseline) : null,
  };
}

function sideOf(side: EvalSideResponse) {
  return {
    output: side.output,
    failedChecks: side.checks.filter((check) => !check.pass).map(({ type, reason }) => ({ type, reason })),
    errorMessage: side.errorMessage,
  };
}
