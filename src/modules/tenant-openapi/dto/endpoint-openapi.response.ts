import { ApiProperty } from '@nestjs/swagger';

/** Calls of the endpoint to copy: the key is read from the PROMPTGATE_KEY environment variable, never written in. */
export class EndpointSnippetsResponse {
  /** A curl command calling the endpoint with a sample body built from its input fields. */
  curl: string;
  /** A TypeScript program calling it through types generated from the tenant's document (openapi-fetch). */
  typescript: string;
}

/** An endpoint's operation in its tenant's OpenAPI document, and calls of it to copy. */
export class EndpointOpenApiResponse {
  /** The operation's id in the tenant's document (the generated client's name for it). */
  operationId: string;
  /** Execution path, `/api/v1/<slug>`. */
  path: string;
  /** The endpoint's URL on the tenant's host. */
  url: string;
  /** The tenant's OpenAPI 3.1 document with this endpoint's operation only. */
  @ApiProperty({ type: 'object', additionalProperties: true })
  document: Record<string, unknown>;
  snippets: EndpointSnippetsResponse;
}
