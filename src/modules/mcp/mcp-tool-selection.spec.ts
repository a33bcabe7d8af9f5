import { ValidationError } from '../../common/errors/app-error';
import type { McpTool } from './mcp-tool';
import { McpToolCatalog } from './mcp-tool-selection';

const tool = (name: string) => ({ name }) as McpTool;
const group = (toolset: string, ...names: string[]) => ({ toolset, tools: () => names.map(tool) });
const catalog = new McpToolCatalog([
  group('endpoints', 'list_endpoints', 'get_endpoint'),
  group('prompts', 'list_prompts', 'create_prompt'),
  group('execution', 'run_endpoint'),
]);
const names = (query: Record<string, unknown>) => catalog.select(query).map((selected) => selected.name);

describe('McpToolCatalog', () => {
  it('serves every tool without a selection', () => {
    expect(names({})).toEqual(['list_endpoints', 'get_endpoint', 'list_prompts', 'create_prompt', 'run_endpoint']);
  });

  it('selects tools by name and by toolset, their union, in the order of the full list', () => {
    expect(names({ tools: 'run_endpoint,list_endpoints' })).toEqual(['list_endpoints', 'run_endpoint']);
    expect(names({ toolsets: 'execution,prompts' })).toEqual(['list_prompts', 'create_prompt', 'run_endpoint']);
    expect(names({ tools: ['get_endpoint', ' run_endpoint '], toolsets: 'execution' })).toEqual([
      'get_endpoint',
      'run_endpoint',
    ]);
  });

  it('refuses an unknown or empty name, naming the parameter and the names it takes', () => {
    expect(() => names({ tools: 'run_endpoint,nope' })).toThrow(
      "tools has an unknown name 'nope'; known: list_endpoints, get_endpoint, list_prompts, create_prompt, run_endpoint",
    );
    expect(() => names({ toolsets: 'execution,everything' })).toThrow(
      "toolsets has an unknown name 'everything'; known: endpoints, prompts, execution",
    );
    expect(() => names({ tools: '' })).toThrow('tools must be a comma-separated list of names, none empty');
    expect(() => names({ toolsets: 'prompts,' })).toThrow(ValidationError);
    expect(() => names({ tools: { a: 'b' } })).toThrow('tools must be a comma-separated list of names');
    expect(() => names({ tools: 'x'.repeat(1000) })).toThrow(`'${'x'.repeat(64)}'`);
  });
});
