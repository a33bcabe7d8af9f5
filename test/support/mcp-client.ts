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

/** An SDK client on `url` sending `headers` on every request, as the editors' HTTP transports do. */
export async function connectMcpWith(url: URL, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'promptgate-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

/** A client's server entry, with the URL and headers it connects with once its placeholders are filled in. */
export interface ClientConnection {
  url: URL;
  headers: Record<string, string>;
}

/** The fenced code blocks of a Markdown page, with their language. */
export function codeBlocks(markdown: string): { lang: string; text: string }[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({ lang: match[1], text: match[2] }));
}

/** The service address the documentation uses, replaced by the test server's. */
const DOCUMENTED_ORIGIN = 'http://localhost:3000';

function onServer(documented: string, baseUrl: string): URL {
  if (!documented.startsWith(DOCUMENTED_ORIGIN)) throw new Error(`not a documented URL: ${documented}`);
  return new URL(documented.slice(DOCUMENTED_ORIGIN.length), baseUrl);
}

/**
 * What `mcp-remote` connects with, from a `command`/`args`/`env` server entry: each `--header` argument is split at its
 * first colon (`Name:value`, spaces after the colon optional), `${VAR}` in a value is replaced from the entry's `env`
 * (an unset one by nothing), and the first argument after `mcp-remote` that is not a flag is the server URL.
 */
export function mcpRemoteConnection(
  entry: { args: string[]; env?: Record<string, string> },
  baseUrl: string,
): ClientConnection {
  const args = entry.args.slice(entry.args.indexOf('mcp-remote') + 1);
  const headers: Record<string, string> = {};
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '--header') {
      rest.push(args[i]);
      continue;
    }
    const match = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(args[++i]);
    if (!match) throw new Error(`mcp-remote ignores the header argument ${args[i]}`);
    headers[match[1]] = match[2].replace(/\$\{([^}]+)\}/g, (_, name: string) => entry.env?.[name] ?? '');
  }
  return {
    url: onServer(
      rest.find((arg) => !arg.startsWith('-'))!,
      baseUrl,
    ),
    headers,
  };
}

/** What `claude mcp add --transport http <name> <url> --header "Name: value"` stores and sends. */
export function claudeCodeConnection(command: string, baseUrl: string): ClientConnection {
  const words = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]);
  if (words.slice(0, 3).join(' ') !== 'claude mcp add') throw new Error(`not a claude mcp add command: ${command}`);
  const headers: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 3; i < words.length; i++) {
    if (words[i] === '--transport') {
      if (words[++i] !== 'http') throw new Error('Claude Code reaches a remote server with --transport http');
    } else if (words[i] === '--header' || words[i] === '-H') {
      const [name, ...value] = words[++i].split(':');
      headers[name.trim()] = value.join(':').trim();
    } else {
      positional.push(words[i]);
    }
  }
  return { url: onServer(positional[1], baseUrl), headers };
}

/**
 * What a JSON server entry with `url` and `headers` connects with (Cursor's and Claude Code's `mcpServers`, VS Code's
 * `servers`), its placeholders filled in by `fill` (`${env:NAME}`, `${NAME}`, `${input:id}`, as each client does).
 */
export function urlEntryConnection(
  entry: { url: string; headers?: Record<string, string> },
  baseUrl: string,
  fill: (placeholder: string) => string,
): ClientConnection {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(entry.headers ?? {})) {
    headers[name] = value.replace(/\$\{([^}]+)\}/g, (_, placeholder: string) => fill(placeholder));
  }
  return { url: onServer(entry.url, baseUrl), headers };
}
