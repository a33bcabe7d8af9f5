import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { EndpointsService } from '../../endpoints/endpoints.service';
import { ExecutionService } from '../../execution/execution.service';
import { defineTool, McpTool, McpToolGroup } from '../mcp-tool';

/** Runs endpoints from an MCP client: the execution service itself, logged with source Internal. */
@Injectable()
export class ExecutionTools extends McpToolGroup {
  constructor(
    private readonly endpoints: EndpointsService,
    private readonly execution: ExecutionService,
  ) {
    super();
  }

  tools(): McpTool[] {
    return [
      defineTool({
        name: 'run_endpoint',
        title: 'Run an endpoint',
        description:
          'Executes an endpoint as its callers do: inputs are validated against its input fields, the default Live prompt ' +
          '(or the Live prompt named in `prompt`) is rendered and sent to its model, and the answer follows its output fields. ' +
          'This calls the LLM, costs tokens and is logged (source Internal).',
        access: 'execute',
        input: {
          endpointId: z.string().uuid().describe('Endpoint id (uuid)'),
          inputs: z.record(z.string(), z.unknown()).describe('The JSON body callers would send, keyed by input field name'),
          prompt: z.string().optional().describe('Name or slug of a Live prompt to use instead of the default'),
        },
        run: async (principal, args, limits) => {
          const definition = await this.endpoints.getDefinition(principal.tenantId, args.endpointId);
          // Counted as a REST execution is (the key's and the endpoint's windows) and as an admin request.
          await limits.admitExecution(definition.endpoint);
          return this.execution.execute({
            principal,
            definition,
            source: 'Internal',
            requestId: randomUUID(),
            body: args.inputs,
            prompt: { selector: args.prompt || undefined },
          });
        },
      }),
    ];
  }
}
