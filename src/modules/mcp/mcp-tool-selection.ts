import { ValidationError } from '../../common/errors/app-error';
import type { McpTool, McpToolGroup } from './mcp-tool';

/** A query parameter as the HTTP adapters parse it: absent, a string, or repeated (an array). */
type QueryValue = unknown;

/** How much of an unknown name a refusal quotes. */
const QUOTED_LENGTH = 64;

/**
 * The tools one MCP request serves: every tool, or only those a client selects in the URL, by name
 * (`/mcp?tools=run_endpoint,list_endpoints`), by toolset (`/mcp?toolsets=execution,prompts`), or both (the union), so
 * a client that caps its tool count or its context gets a short list. A tool left out is neither listed nor callable
 * (calling it is an unknown tool). Names are comma-separated, in one parameter or repeated; an unknown or empty one
 * is refused, naming the parameter and the names it accepts.
 */
export class McpToolCatalog {
  private readonly all: McpTool[];
  private readonly byName: Map<string, McpTool>;
  private readonly toolsets: Map<string, McpTool[]>;

  constructor(groups: McpToolGroup[]) {
    this.toolsets = new Map(groups.map((group) => [group.toolset, group.tools()]));
    this.all = [...this.toolsets.values()].flat();
    this.byName = new Map(this.all.map((tool) => [tool.name, tool]));
  }

  select(query: { tools?: QueryValue; toolsets?: QueryValue }): McpTool[] {
    const toolNames = namesOf(query.tools, 'tools');
    const toolsetNames = namesOf(query.toolsets, 'toolsets');
    if (toolNames === null && toolsetNames === null) return this.all;
    const chosen = new Set<McpTool>();
    for (const name of toolNames ?? []) chosen.add(this.known(this.byName, name, 'tools'));
    for (const name of toolsetNames ?? [])
      for (const tool of this.known(this.toolsets, name, 'toolsets')) chosen.add(tool);
    // In the order of the full list, whatever the order of the names.
    return this.all.filter((tool) => chosen.has(tool));
  }

  private known<T>(names: Map<string, T>, name: string, parameter: string): T {
    const found = names.get(name);
    if (found !== undefined) return found;
    throw new ValidationError(
      [`${parameter} has an unknown name '${name.slice(0, QUOTED_LENGTH)}'; known: ${[...names.keys()].join(', ')}`],
      parameter,
    );
  }
}

/** The comma-separated names of a parameter, or null when it is absent; an empty name is refused. */
function namesOf(value: QueryValue, parameter: string): string[] | null {
  if (value === undefined) return null;
  const parts: unknown[] = Array.isArray(value) ? value : [value];
  if (!parts.every((part) => typeof part === 'string'))
    throw new ValidationError([`${parameter} must be a comma-separated list of names`], parameter);
  const names = parts.flatMap((part) => part.split(',')).map((name) => name.trim());
  if (names.includes(''))
    throw new ValidationError([`${parameter} must be a comma-separated list of names, none empty`], parameter);
  return names;
}
