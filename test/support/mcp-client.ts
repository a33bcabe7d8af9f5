import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The MCP SDK's own client over Streamable HTTP, authenticated the way a desktop client is configured. */
export async function connectMcp(baseUrl: string, key: string): Promise<Client> {
  const client = new Client({ name: 'promptgate-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

/** The JSON a tool answered (tools answer one text part holding JSON). */
export function toolJson(result: unknown): any {
  const content = (result as { content: { type: string; text: string }[] }).content;
  return JSON.parse(content[0].text);
}

export function toolText(result: unknown): string {
  return (result as { content: { type: string; text: string }[] }).content[0].text;
}
