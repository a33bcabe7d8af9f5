import { Injectable } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isUUID } from 'class-validator';
import type { Principal } from '../../common/auth/principal';
import { NotFoundError } from '../../common/errors/app-error';
import { allPages } from '../../common/http/paging';
import { AppLogger } from '../../common/logging/app-logger';
import { EndpointsService } from '../endpoints/endpoints.service';
import { mcpFailureOf } from './mcp-failure';
import type { McpSdk } from './mcp-sdk';

const URI = 'promptgate://endpoints/{id}';

/**
 * Each endpoint's definition (settings, input and output fields, default prompt) as a readable resource, so a client
 * can attach it as context when writing a prompt or calling run_endpoint.
 */
@Injectable()
export class EndpointResources {
  constructor(
    private readonly endpoints: EndpointsService,
    private readonly logger: AppLogger,
  ) {}

  register(server: McpServer, principal: Principal, { ResourceTemplate }: McpSdk): void {
    server.registerResource(
      'endpoint',
      new ResourceTemplate(URI, {
        list: async () => {
          try {
            // resources/list of this SDK has no cursor, so the listing holds every endpoint, read page by page.
            const endpoints = await allPages((page) => this.endpoints.list(principal.tenantId, page));
            return {
              resources: endpoints.map((endpoint) => ({
                uri: `promptgate://endpoints/${endpoint.id}`,
                name: endpoint.name,
                description: `${endpoint.path}: ${endpoint.inputFields.length} input and ${endpoint.outputFields.length} output fields`,
                mimeType: 'application/json',
              })),
            };
          } catch (thrown) {
            throw mcpFailureOf(thrown, this.logger, { resource: 'endpoint' });
          }
        },
      }),
      { title: 'Endpoint definition', description: 'An endpoint with its settings, input fields and output fields', mimeType: 'application/json' },
      async (uri, variables) => {
        const id = String(variables.id);
        try {
          // An id that is not a UUID names no endpoint: not found, without asking the database.
          if (!isUUID(id)) throw new NotFoundError(`Endpoint ${id} not found`);
          const endpoint = await this.endpoints.get(principal.tenantId, id);
          return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(endpoint, null, 2) }] };
        } catch (thrown) {
          throw mcpFailureOf(thrown, this.logger, { resource: 'endpoint' });
        }
      },
    );
  }
}
