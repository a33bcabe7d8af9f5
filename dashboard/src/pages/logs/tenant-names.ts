import { api, type Schemas, unwrap, unwrapPage } from '../../api/client';

/**
 * The names a log row or a stats view refers to by id: the tenant's endpoints (soft-deleted ones too, since their
 * calls stay in the logs) and each endpoint's prompts (archived ones too). Loaded once per page view.
 */
export interface EndpointName {
  id: string;
  name: string;
  path: string;
  deleted: boolean;
}

export interface PromptName {
  id: string;
  name: string;
  status: Schemas['PromptResponse']['status'];
}

const ENDPOINT_PAGE_SIZE = 500;

async function allEndpoints(deleted: boolean): Promise<EndpointName[]> {
  const names: EndpointName[] = [];
  for (let page = 1; ; page++) {
    const { items, hasNextPage } = await unwrapPage(
      api.GET('/admin/v1/endpoints', { params: { query: { page, pageSize: ENDPOINT_PAGE_SIZE, deleted } } }),
    );
    for (const endpoint of items) names.push({ id: endpoint.id, name: endpoint.name, path: endpoint.path, deleted });
    if (!hasNextPage) return names;
  }
}

/** Every endpoint of the tenant, by name, the soft-deleted ones last. */
export async function loadEndpointNames(): Promise<EndpointName[]> {
  const [active, deleted] = await Promise.all([allEndpoints(false), allEndpoints(true)]);
  const byName = (a: EndpointName, b: EndpointName) => a.name.localeCompare(b.name);
  return [...active.sort(byName), ...deleted.sort(byName)];
}

/** An endpoint's prompts, archived ones included (the list leaves them out unless asked for them). */
export async function loadPromptNames(endpointId: string): Promise<PromptName[]> {
  const [current, archived] = await Promise.all([
    unwrap(api.GET('/admin/v1/prompts', { params: { query: { endpointId } } })),
    unwrap(api.GET('/admin/v1/prompts', { params: { query: { endpointId, status: 'Archived' } } })),
  ]);
  return [...current, ...archived].map((prompt) => ({ id: prompt.id, name: prompt.name, status: prompt.status }));
}

export function endpointLabel(endpoint: EndpointName): string {
  return endpoint.deleted ? `${endpoint.name} (deleted)` : endpoint.name;
}
