import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type * as McpTypes from '@modelcontextprotocol/sdk/types.js';

/** The parts of the MCP SDK this module uses: the low-level server (raw JSON Schemas), its request schemas, the transport. */
export interface McpSdk {
  Server: typeof Server;
  StreamableHTTPServerTransport: typeof StreamableHTTPServerTransport;
  requests: Pick<
    typeof McpTypes,
    | 'ListToolsRequestSchema'
    | 'CallToolRequestSchema'
    | 'ListResourcesRequestSchema'
    | 'ListResourceTemplatesRequestSchema'
    | 'ReadResourceRequestSchema'
  >;
  McpError: typeof McpTypes.McpError;
}

let loaded: McpSdk | undefined;

/**
 * The MCP SDK, loaded on the first MCP request rather than at start: about 200 ms of start-up and 15 MB of memory
 * for a service that may never see an MCP client. `require`, not `import()`: the SDK ships CommonJS and ESM builds,
 * and the CommonJS one shares the zod instance its request schemas are built with.
 */
export function mcpSdk(): McpSdk {
  if (!loaded) {
    const { Server } = require('@modelcontextprotocol/sdk/server/index.js') as { Server: McpSdk['Server'] };
    const http = require('@modelcontextprotocol/sdk/server/streamableHttp.js') as Pick<
      McpSdk,
      'StreamableHTTPServerTransport'
    >;
    const types = require('@modelcontextprotocol/sdk/types.js') as typeof McpTypes;
    loaded = {
      Server,
      StreamableHTTPServerTransport: http.StreamableHTTPServerTransport,
      requests: types,
      McpError: types.McpError,
    };
  }
  return loaded;
}
