import { Injectable } from '@nestjs/common';
import { ListKeysQuery } from '../../keys/dto/list-keys.dto';
import { KeysService } from '../../keys/keys.service';
import { defineTool, McpTool, McpToolGroup, PAGED_RESULTS } from '../mcp-tool';

/** API key records (read-only here: key values are never shown again, and keys are created and revoked over REST or the CLI). */
@Injectable()
export class KeyTools extends McpToolGroup {
  readonly toolset = 'keys';

  constructor(private readonly keys: KeysService) {
    super();
  }

  tools(): McpTool[] {
    return [
      defineTool({
        name: 'list_keys',
        title: 'List API keys',
        description:
          "Lists the tenant's API key records, oldest first: name, type, environment or permission, last4 (never the value), " +
          `status, createdAt, lastUsedAt, endpoint restriction and rate limits. ${PAGED_RESULTS}`,
        access: 'read',
        input: ListKeysQuery,
        output: 'list',
        run: async ({ principal, input }) => (await this.keys.list(principal.tenantId, input)).items,
      }),
    ];
  }
}
