import { Injectable } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Principal } from '../../common/auth/principal';
import { allPages } from '../../common/http/paging';
import { EndpointsService } from '../endpoints/endpoints.service';
import type { McpSdk } from './mcp-sdk';

const URI = 'promptgate://endpoints/{id}';

/**
 * Each endpoint's definition (settings, input and output fields, default prompt) as a readable resource, so a client
 * can attach it as context when writing a prompt or calling run_endpoint.
 */
@Injectable()
export class EndpointResources {
  constructor(private readonly endpoints: EndpointsService) {}

  register(server: McpServer, principal: Principal, { ResourceTemplate }: McpSdk): void {
    server.registerResource(
      'endpoint',
      new ResourceTemplate(URI, {
        list: async () => ({
          // resources/list of this SDK has no cursor, so the listing holds every endpoint, read page by page.
          resources: (await allPages((page) => this.endpoints.list(principal.tenantId, page))).map((endpoint) => ({
            uri: `promptgate://endpoints/${endpoint.id}`,
            name: endpoint.name,
            description: `${endpoint.path}: ${endpoint.inputFields.length} input and ${endpoint.outputFields.length} output fields`,
            mimeType: 'application/json',
          })),
        }),
      }),
      { title: 'Endpoint definition', description: 'An endpoint with its settings, input fields and output fields', mimeType: 'application/json' },
      async (uri, variables) => {
        const endpoint = await this.endpoints.get(principal.tenantId, String(variables.id));
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(endpoint, null, 2) }] };
      },
    );
  }
}
