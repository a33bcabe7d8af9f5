import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Promptgate')
    .setDescription(
      'Admin REST API of Promptgate. Every admin response is the envelope {succeeded, messages, data}. ' +
        'Authenticate with an admin key (epa_…) in x-api-key or as a Bearer token.',
    )
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key' }, 'api-key')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An admin key as a Bearer token' }, 'bearer')
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Swagger UI at /docs and the document at /docs-json; both need no key. */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => createOpenApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}
