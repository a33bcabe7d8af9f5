import { Injectable } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { isUUID } from 'class-validator';
import type { Principal } from '../../common/auth/principal';
import { allPages } from '../../common/http/paging';
import { AppLogger } from '../../common/logging/app-logger';
import { EndpointsService } from '../endpoints/endpoints.service';
import { mcpFailureOf } from './mcp-failure';
import type { McpSdk } from './mcp-sdk';
import { EndpointErrors } from '../endpoints/endpoints.errors';
import { McpErrors } from './mcp.errors';

const PREFIX = 'promptgate://endpoints/';
const TEMPLATE = {
  uriTemplate: `${PREFIX}{id}`,
  name: 'endpoint',
  title: 'Endpoint definition',
  description: 'An endpoint with its settings, input fields and output fields',
  mimeType: 'application/json',
};

/**
 * Each endpoint's definition (settings, input and output fields, default prompt) as a readable resource, titled with
 * the endpoint's name, so a client can attach it as context when writing a prompt or calling run_endpoint.
 */
@Injectable()
export class EndpointResources {
  constructor(
    private readonly endpoints: EndpointsService,
    private readonly logger: AppLogger,
  ) {}

  register(server: Server, principal: Principal, { requests }: McpSdk): void {
    server.setRequestHandler(requests.ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [TEMPLATE] }));
    server.setRequestHandler(requests.ListResourcesRequestSchema, async () => {
      try {
        // resources/list is answered whole (no cursor), so the listing holds every endpoint, read page by page.
        const endpoints = await allPages((page) => this.endpoints.list(principal.tenantId, page));
        return {
          resources: endpoints.map((endpoint) => ({
            uri: `${PREFIX}${endpoint.id}`,
            name: endpoint.name,
            title: endpoint.name,
            description: `${endpoint.path}: ${endpoint.inputFields.length} input and ${endpoint.outputFields.length} output fields`,
            mimeType: 'application/json',
          })),
        };
      } catch (thrown) {
        throw mcpFailureOf(thrown, this.logger, { resource: 'endpoint' });
      }
    });
    server.setRequestHandler(requests.ReadResourceRequestSchema, async (request) => {
      const { uri } = request.params;
      try {
        // A URI that is not an endpoint's, or an id that is not a UUID, names no resource: not found, without asking the database.
        if (!uri.startsWith(PREFIX)) throw McpErrors.resourceNotFound(uri);
        const id = uri.slice(PREFIX.length);
        if (!isUUID(id)) throw EndpointErrors.endpointNotFound(id);
        const endpoint = await this.endpoints.get(principal.tenantId, id);
        return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(endpoint) }] };
      } catch (thrown) {
        throw mcpFailureOf(thrown, this.logger, { resource: 'endpoint' });
      }
    });
  }
}
