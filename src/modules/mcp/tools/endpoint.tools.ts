import { Injectable } from '@nestjs/common';
import {
  CreateEndpointDto,
  DeleteEndpointQuery,
  ListEndpointsQuery,
  UpdateEndpointDto,
} from '../../endpoints/dto/endpoint.dto';
import {
  CreateInputFieldDto,
  CreateOutputFieldDto,
  UpdateInputFieldDto,
  UpdateOutputFieldDto,
} from '../../endpoints/dto/field.dto';
import { EndpointFieldsService } from '../../endpoints/endpoint-fields.service';
import { EndpointsService } from '../../endpoints/endpoints.service';
import { defineTool, McpTool, McpToolGroup, PAGED_RESULTS, uuidId } from '../mcp-tool';

const id = uuidId('Endpoint id (uuid)');
const fieldIds = { endpointId: id, fieldId: uuidId('Field id (uuid)') };

/** Endpoints and their input/output fields: the same services and request DTOs as the REST controllers. */
@Injectable()
export class EndpointTools extends McpToolGroup {
  readonly toolset = 'endpoints';

  constructor(
    private readonly endpoints: EndpointsService,
    private readonly fields: EndpointFieldsService,
  ) {
    super();
  }

  tools(): McpTool[] {
    const { endpoints, fields } = this;
    return [
      defineTool({
        name: 'list_endpoints',
        title: 'List endpoints',
        description:
          "Lists the tenant's endpoints with their input and output fields, oldest first. Filters: search (name), visibility, " +
          `category, deleted (soft-deleted ones instead). ${PAGED_RESULTS}`,
        access: 'read',
        input: ListEndpointsQuery,
        output: 'list',
        run: async ({ principal, input }) => (await endpoints.list(principal.tenantId, input)).items,
      }),
      defineTool({
        name: 'get_endpoint',
        title: 'Get an endpoint',
        description: 'An endpoint with its settings, input fields, output fields and defaultPromptId.',
        access: 'read',
        ids: { id },
        output: 'object',
        run: ({ principal, ids }) => endpoints.get(principal.tenantId, ids.id),
      }),
      defineTool({
        name: 'create_endpoint',
        title: 'Create an endpoint',
        description: 'Creates an endpoint answering POST <path>. Add input fields, output fields and a prompt next.',
        access: 'write',
        input: CreateEndpointDto,
        output: 'object',
        run: ({ principal, input }) => endpoints.create(principal.tenantId, input),
      }),
      defineTool({
        name: 'update_endpoint',
        title: 'Update an endpoint',
        description:
          "Changes any subset of an endpoint's settings, and its trafficSplit: {variants: [{promptId, weight}], stickyBy} " +
          'shares the calls without a pinned prompt between 2 to 5 Live prompts (integer weights summing to 100; stickyBy ' +
          'key, none or header:<name>); null removes it.',
        access: 'write',
        ids: { id },
        input: UpdateEndpointDto,
        output: 'object',
        run: ({ principal, ids, input }) => endpoints.update(principal.tenantId, ids.id, input, principal.keyId),
      }),
      defineTool({
        name: 'delete_endpoint',
        title: 'Delete an endpoint',
        description:
          'Soft-deletes an endpoint (restorable with restore_endpoint). permanent: true removes it with its prompts, versions, ' +
          'logs and cached responses for good. The result is {"deleted": <id>, "permanent": <boolean>}.',
        access: 'write',
        ids: { id },
        input: DeleteEndpointQuery,
        output: 'object',
        run: async ({ principal, ids, input }) => {
          if (input.permanent) await endpoints.deletePermanently(principal.tenantId, ids.id);
          else await endpoints.softDelete(principal.tenantId, ids.id);
          return { deleted: ids.id, permanent: Boolean(input.permanent) };
        },
      }),
      defineTool({
        name: 'restore_endpoint',
        title: 'Restore an endpoint',
        description: 'Brings back a soft-deleted endpoint (fails if its path was taken meanwhile).',
        access: 'write',
        ids: { id },
        output: 'object',
        run: ({ principal, ids }) => endpoints.restore(principal.tenantId, ids.id),
      }),
      defineTool({
        name: 'add_input_field',
        title: 'Add an input field',
        description: 'Adds a field callers send in the JSON body; templates read it as {{ inputs.<name> }}.',
        access: 'write',
        ids: { endpointId: id },
        input: CreateInputFieldDto,
        output: 'object',
        run: ({ principal, ids, input }) => fields.addInput(principal.tenantId, ids.endpointId, input),
      }),
      defineTool({
        name: 'update_input_field',
        title: 'Update an input field',
        description: 'Changes an input field.',
        access: 'write',
        ids: fieldIds,
        input: UpdateInputFieldDto,
        output: 'object',
        run: ({ principal, ids, input }) => fields.updateInput(principal.tenantId, ids.endpointId, ids.fieldId, input),
      }),
      defineTool({
        name: 'delete_input_field',
        title: 'Delete an input field',
        description: 'Removes an input field. The result is {"deleted": <fieldId>}.',
        access: 'write',
        ids: fieldIds,
        output: 'object',
        run: async ({ principal, ids }) => {
          await fields.deleteInput(principal.tenantId, ids.endpointId, ids.fieldId);
          return { deleted: ids.fieldId };
        },
      }),
      defineTool({
        name: 'add_output_field',
        title: 'Add an output field',
        description:
          'Adds a field of the JSON the endpoint answers; with output fields the model is asked for structured output. ' +
          'A field may constrain its value (enum and maxLength on strings, minimum and maximum on numbers) and nest ' +
          'definitions (properties of an object, items of an array, 3 levels at most); every answer is checked against them.',
        access: 'write',
        ids: { endpointId: id },
        input: CreateOutputFieldDto,
        output: 'object',
        run: ({ principal, ids, input }) => fields.addOutput(principal.tenantId, ids.endpointId, input),
      }),
      defineTool({
        name: 'update_output_field',
        title: 'Update an output field',
        description: 'Changes an output field.',
        access: 'write',
        ids: fieldIds,
        input: UpdateOutputFieldDto,
        output: 'object',
        run: ({ principal, ids, input }) => fields.updateOutput(principal.tenantId, ids.endpointId, ids.fieldId, input),
      }),
      defineTool({
        name: 'delete_output_field',
        title: 'Delete an output field',
        description: 'Removes an output field. The result is {"deleted": <fieldId>}.',
        access: 'write',
        ids: fieldIds,
        output: 'object',
        run: async ({ principal, ids }) => {
          await fields.deleteOutput(principal.tenantId, ids.endpointId, ids.fieldId);
          return { deleted: ids.fieldId };
        },
      }),
    ];
  }
}
