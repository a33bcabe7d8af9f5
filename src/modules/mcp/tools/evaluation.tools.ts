import { Injectable } from '@nestjs/common';
import { DatasetItemsService } from '../../datasets/dataset-items.service';
import { DatasetsService } from '../../datasets/datasets.service';
import { AddDatasetItemsDto } from '../../datasets/dto/dataset-item.dto';
import { defineTool, McpTool, McpToolGroup, uuidId } from '../mcp-tool';

/**
 * Datasets and evaluation runs: an endpoint's datasets and adding items (the same services and DTOs as REST).
 */
@Injectable()
export class EvaluationTools extends McpToolGroup {
  readonly toolset = 'evaluations';

  constructor(
    private readonly datasets: DatasetsService,
    private readonly items: DatasetItemsService,
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
    ];
  }
}
