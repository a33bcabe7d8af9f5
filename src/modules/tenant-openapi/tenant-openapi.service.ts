import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { Principal } from '../../common/auth/principal';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { endpointAccessRefusal } from '../endpoints/endpoint-access';
import { EndpointsService, type TenantDefinitions } from '../endpoints/endpoints.service';
import { EndpointOpenApiResponse } from './dto/endpoint-openapi.response';
import { endpointSnippetsOf } from './endpoint-snippets';
import { tenantBaseUrl } from './tenant-base-url';
import { buildTenantDocument, documentHash, type OpenApiDocument } from './tenant-document';
import { EndpointErrors } from '../endpoints/endpoints.errors';

/** Where a request reached the service: its `Host` and the `X-Forwarded-Proto` a proxy set. */
export interface CallerHost {
  host: string | undefined;
  forwardedProto: string | undefined;
}

/** A document as served: its JSON text and its strong ETag (quoted). */
export interface ServedDocument {
  document: OpenApiDocument;
  json: string;
  etag: string;
  /** The definitions it was built from: it is current while the endpoints service answers this same object. */
  source: TenantDefinitions;
}

/**
 * Documents kept: one per tenant, scope of keys and host they were asked from, at most this many characters of JSON
 * in all (about four bytes each with the parsed form), so that no tenant's documents crowd out the others' memory.
 */
const DOCUMENT_CACHE = { max: 1_000, maxSize: 16 * 1024 * 1024 };

/** The OpenAPI documents of a tenant's endpoints, as each key sees them. */
@Injectable()
export class TenantOpenApiService {
  private readonly documents = new LRUCache<string, ServedDocument>({
    ...DOCUMENT_CACHE,
    sizeCalculation: (served) => Math.max(1, served.json.length),
  });

  constructor(
    private readonly endpoints: EndpointsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The document of the endpoints the key may call (by the same rule as executions: every endpoint for admin keys,
   * Public ones for endpoint keys, only those of its endpointIds for a restricted key), with the tenant's base URL as
   * its server. It is built again only when one of the tenant's endpoint definitions changed.
   */
  async documentFor(principal: Principal, caller: CallerHost): Promise<ServedDocument> {
    const source = await this.endpoints.activeDefinitions(principal.tenantId);
    const serverUrl = tenantBaseUrl(caller, principal.tenantSlug, this.config.baseDomain);
    const cacheKey = `${principal.tenantId}\n${scopeOf(principal)}\n${serverUrl}`;
    const cached = this.documents.get(cacheKey);
    if (cached?.source === source) return cached;
    const document = buildTenantDocument({
      tenantSlug: principal.tenantSlug,
      serverUrl,
      definitions: source.definitions.filter((d) => endpointAccessRefusal(principal, d.endpoint) === null),
      maxImageBytes: this.config.maxImageBytes,
    });
    const json = JSON.stringify(document);
    const served: ServedDocument = { source, document, json, etag: `"${documentHash(document)}"` };
    this.documents.set(cacheKey, served);
    return served;
  }

  /**
   * One endpoint's part of the tenant's document (for the dashboard): its operation, as the tenant's document has it,
   * in a document of its own, with ready-to-run calls of it. NotFoundError for an unknown or deleted endpoint.
   */
  async endpointDocument(
    principal: Principal,
    caller: CallerHost,
    endpointId: string,
  ): Promise<EndpointOpenApiResponse> {
    const { document, source } = await this.documentFor(principal, caller);
    const definition = source.definitions.find((d) => d.endpoint.id === endpointId);
    const pathItem = definition && document.paths[definition.endpoint.path];
    if (!definition || !pathItem) throw EndpointErrors.endpointNotFound(endpointId);
    const { path, visibility } = definition.endpoint;
    const serverUrl = (document.servers as { url: string }[])[0].url;
    const operation = pathItem.post;
    return {
      operationId: operation.operationId,
      path,
      url: `${serverUrl}${path}`,
      document: { ...document, paths: { [path]: pathItem } },
      snippets: endpointSnippetsOf(
        serverUrl,
        path,
        operation.requestBody.content['application/json'].example,
        // Internal (Private) endpoints refuse endpoint keys.
        visibility === 'Private' ? 'ADMIN_KEY' : 'ENDPOINT_KEY',
      ),
    };
  }
}

/** Which endpoints a key sees: all (admin), the Public ones, or the Public ones among its endpointIds. */
function scopeOf(principal: Principal): string {
  if (principal.type === 'admin') return 'admin';
  if (!principal.endpointIds) return 'endpoint';
  return `endpoint:${[...principal.endpointIds].sort().join(',')}`;
}
