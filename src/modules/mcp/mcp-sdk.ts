import type { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** The classes of the MCP SDK this module uses. */
export interface McpSdk {
  McpServer: typeof McpServer;
  ResourceTemplate: typeof ResourceTemplate;
  StreamableHTTPServerTransport: typeof StreamableHTTPServerTransport;
}

let loaded: McpSdk | undefined;

/**
 * The MCP SDK, loaded on the first MCP request rather than at start: about 200 ms of start-up and 15 MB of memory
 * for a service that may never see an MCP client. `require`, not `import()`: the SDK ships CommonJS and ESM builds,
 * and the CommonJS one shares the zod instance our tool schemas are built with.
 */
export function mcpSdk(): McpSdk {
  if (!loaded) {
    const server = require('@modelcontextprotocol/sdk/server/mcp.js') as Pick<McpSdk, 'McpServer' | 'ResourceTemplate'>;
    const http = require('@modelcontextprotocol/sdk/server/streamableHttp.js') as Pick<McpSdk, 'StreamableHTTPServerTransport'>;
    const { McpServer, ResourceTemplate } = server;
    loaded = { McpServer, ResourceTemplate, StreamableHTTPServerTransport: http.StreamableHTTPServerTransport };
  }
  return loaded;
}
