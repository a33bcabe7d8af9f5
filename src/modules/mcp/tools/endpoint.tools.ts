import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { validateDto } from '../../../common/http/validation.pipe';
import { CreateEndpointDto, ListEndpointsQuery, UpdateEndpointDto } from '../../endpoints/dto/endpoint.dto';
import { CreateInputFieldDto, CreateOutputFieldDto, UpdateInputFieldDto, UpdateOutputFieldDto } from '../../endpoints/dto/field.dto';
import { EndpointFieldsService } from '../../endpoints/endpoint-fields.service';
import { EndpointsService } from '../../endpoints/endpoints.service';
import { defineTool, integerArgument, McpTool, McpToolGroup, optionalShape, PAGED_RESULTS, pageArguments } from '../mcp-tool';

const id = z.string().uuid().describe('Endpoint id (uuid)');
const endpointSettings = {
  name: z.string().describe('Display name'),
  path: z.string().describe('Execution path /api/v1/<slug>: lower-case letters, digits, -, _ and /'),
  description: z.string().optional().describe('Free text'),
  visibility: z.enum(['Public', 'Private']).optional().describe('Public (default): any key of the tenant; Private: admin keys only'),
  category: z.string().nullable().optional(),
  cacheEnabled: z.boolean().optional().describe('Serve identical requests from the cache'),
  cacheDurationSeconds: integerArgument().optional().describe('Cache lifetime in seconds, 1..2592000 (default 300)'),
  rateLimitPerMinute: integerArgument().nullable().optional().describe('Per-key limit on this endpoint; null for none'),
  rateLimitPerHour: integerArgument().nullable().optional(),
  rateLimitPerDay: integerArgument().nullable().optional(),
  timeoutSeconds: integerArgument().optional().describe('Bound on the LLM call, 1..600 seconds (default 60)'),
};
const inputField = {
  name: z.string().describe('Key in the request body; templates read it as {{ inputs.<name> }}'),
  dataType: z.enum(['string', 'integer', 'number', 'boolean', 'image', 'object', 'array']),
  isRequired: z.boolean().optional(),
  description: z.string().optional(),
  maxLength: integerArgument().nullable().optional().describe('string fields only'),
  minimum: z.number().nullable().optional().describe('integer/number fields only'),
  maximum: z.number().nullable().optional().describe('integer/number fields only'),
  defaultValue: z.unknown().optional().describe('A JSON value of the field type, used when the field is absent'),
};
const outputField = {
  name: z.string(),
  dataType: z.enum(['string', 'integer', 'number', 'boolean', 'object', 'array', 'image']).describe('An image field makes the endpoint generate images'),
  description: z.string().optional(),
  exampleValue: z.string().nullable().optional().describe('For image fields: a JSON object of default settings, e.g. {"size":"1024x1024"}'),
};

/** Endpoints and their input/output fields: the same services as the REST controllers. */
@Injectable()
export class EndpointTools extends McpToolGroup {
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
          'Lists the tenant\'s endpoints with their input and output fields, oldest first. Filters: search (name), visibility, ' +
          `deleted (soft-deleted ones instead). ${PAGED_RESULTS}`,
        access: 'read',
        input: {
          search: z.string().optional(),
          visibility: z.enum(['Public', 'Private']).optional(),
          deleted: z.boolean().optional(),
          ...pageArguments(),
        },
        run: async (p, args) => (await endpoints.list(p.tenantId, validateDto(ListEndpointsQuery, args))).items,
      }),
      defineTool({
        name: 'get_endpoint',
        title: 'Get an endpoint',
        description: 'An endpoint with its settings, input fields, output fields and defaultPromptId.',
        access: 'read',
        input: { id },
        run: (p, args) => endpoints.get(p.tenantId, args.id),
      }),
      defineTool({
        name: 'create_endpoint',
        title: 'Create an endpoint',
        description: 'Creates an endpoint answering POST <path>. Add input fields, output fields and a prompt next.',
        access: 'write',
        input: endpointSettings,
        run: (p, args) => endpoints.create(p.tenantId, validateDto(CreateEndpointDto, args)),
      }),
      defineTool({
        name: 'update_endpoint',
        title: 'Update an endpoint',
        description: 'Changes any subset of an endpoint\'s settings.',
        access: 'write',
        input: { id, ...optionalShape(endpointSettings) },
        run: (p, { id: endpointId, ...changes }) => endpoints.update(p.tenantId, endpointId, validateDto(UpdateEndpointDto, changes)),
      }),
      defineTool({
        name: 'delete_endpoint',
        title: 'Delete an endpoint',
        description: 'Soft-deletes an endpoint (restorable with restore_endpoint). permanent: true removes it with its prompts, versions, logs and cached responses for good.',
        access: 'write',
        input: { id, permanent: z.boolean().optional() },
        run: async (p, args) => {
          if (args.permanent) await endpoints.deletePermanently(p.tenantId, args.id);
          else await endpoints.softDelete(p.tenantId, args.id);
          return { deleted: args.id, permanent: Boolean(args.permanent) };
        },
      }),
      defineTool({
        name: 'restore_endpoint',
        title: 'Restore an endpoint',
        description: 'Brings back a soft-deleted endpoint (fails if its path was taken meanwhile).',
        access: 'write',
        input: { id },
        run: (p, args) => endpoints.restore(p.tenantId, args.id),
      }),
      defineTool({
        name: 'add_input_field',
        title: 'Add an input field',
        description: 'Adds a field callers send in the JSON body.',
        access: 'write',
        input: { endpointId: id, ...inputField },
        run: (p, { endpointId, ...field }) => fields.addInput(p.tenantId, endpointId, validateDto(CreateInputFieldDto, field)),
      }),
      defineTool({
        name: 'update_input_field',
        title: 'Update an input field',
        description: 'Changes an input field.',
        access: 'write',
        input: { endpointId: id, fieldId: z.string().uuid(), ...optionalShape(inputField) },
        run: (p, { endpointId, fieldId, ...changes }) =>
          fields.updateInput(p.tenantId, endpointId, fieldId, validateDto(UpdateInputFieldDto, changes)),
      }),
      defineTool({
        name: 'delete_input_field',
        title: 'Delete an input field',
        description: 'Removes an input field.',
        access: 'write',
        input: { endpointId: id, fieldId: z.string().uuid() },
        run: async (p, args) => {
          await fields.deleteInput(p.tenantId, args.endpointId, args.fieldId);
          return { deleted: args.fieldId };
        },
      }),
      defineTool({
        name: 'add_output_field',
        title: 'Add an output field',
        description: 'Adds a field of the JSON the endpoint answers; with output fields the model is asked for structured output.',
        access: 'write',
        input: { endpointId: id, ...outputField },
        run: (p, { endpointId, ...field }) => fields.addOutput(p.tenantId, endpointId, validateDto(CreateOutputFieldDto, field)),
      }),
      defineTool({
        name: 'update_output_field',
        title: 'Update an output field',
        description: 'Changes an output field.',
        access: 'write',
        input: { endpointId: id, fieldId: z.string().uuid(), ...optionalShape(outputField) },
        run: (p, { endpointId, fieldId, ...changes }) =>
          fields.updateOutput(p.tenantId, endpointId, fieldId, validateDto(UpdateOutputFieldDto, changes)),
      }),
      defineTool({
        name: 'delete_output_field',
        title: 'Delete an output field',
        description: 'Removes an output field.',
        access: 'write',
        input: { endpointId: id, fieldId: z.string().uuid() },
        run: async (p, args) => {
          await fields.deleteOutput(p.tenantId, args.endpointId, args.fieldId);
          return { deleted: args.fieldId };
        },
      }),
    ];
  }
}
