import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { NO_TAGS } from '../../../common/tags/tags';
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
          'Runs an endpoint as its callers do: inputs checked against its input fields, the default Live prompt (or the ' +
          "Live one named in `prompt`, or the traffic split's choice) rendered and sent to its model. Calls the LLM, " +
          'costs tokens, is logged (source Internal). Result: {"output": <the body a REST caller gets>}.',
        access: 'execute',
        input: RunEndpointDto,
        output: 'object',
        run: async ({ principal, input, limits }) => {
          const definition = await this.endpoints.getDefinition(principal.tenantId, input.endpointId);
          // Counted as a REST execution is (the key's and the endpoint's windows) and as an admin request.
          await limits.admitExecution(definition.endpoint);
          const output = await this.execution.execute({
            kind: 'mcp',
            principal,
            definition,
            requestId: randomUUID(),
            body: input.inputs,
            tags: input.tags ?? NO_TAGS,
            prompt: { selector: input.prompt || undefined },
          });
          return { output };
        },
      }),
    ];
  }
}
