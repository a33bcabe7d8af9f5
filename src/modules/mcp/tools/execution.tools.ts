import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EndpointsService } from '../../endpoints/endpoints.service';
import { ExecutionService } from '../../execution/execution.service';
import { RunEndpointDto } from '../dto/run-endpoint.dto';
import { defineTool, McpTool, McpToolGroup } from '../mcp-tool';

/** Runs endpoints from an MCP client: the execution service itself, logged with source Internal. */
@Injectable()
export class ExecutionTools extends McpToolGroup {
  readonly toolset = 'execution';

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
          "(or the Live prompt named in `prompt`, or the traffic split's choice for this key) is rendered and sent to its " +
          'model, and the answer follows its output fields. ' +
          'This calls the LLM, costs tokens and is logged (source Internal). The result is {"output": <the body a REST ' +
          'caller receives>}: a string without output fields, an object with them.',
        access: 'execute',
        input: RunEndpointDto,
        output: 'object',
        run: async ({ principal, input, limits }) => {
          const definition = await this.endpoints.getDefinition(principal.tenantId, input.endpointId);
          // Counted as a REST execution is (the key's and the endpoint's windows) and as an admin request.
          await limits.admitExecution(definition.endpoint);
          const output = await this.execution.execute({
            principal,
            definition,
            source: 'Internal',
            requestId: randomUUID(),
            body: input.inputs,
            prompt: { selector: input.prompt || undefined },
          });
          return { output };
        },
      }),
    ];
  }
}
