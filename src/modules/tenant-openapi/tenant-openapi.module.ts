import { Module } from '@nestjs/common';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { AuthenticatedKeyGuard } from '../../common/auth/authenticated-key.guard';
import { EndpointOpenApiController } from './endpoint-openapi.controller';
import { TenantOpenApiController } from './tenant-openapi.controller';
import { TenantOpenApiService } from './tenant-openapi.service';

// Owns the OpenAPI documents of a tenant's endpoints (GET /api/v1/openapi.json, Swagger UI at /api/v1/docs, and an
// endpoint's operation at GET /admin/v1/endpoints/{id}/openapi). Exports nothing.
@Module({
  imports: [EndpointsModule],
  controllers: [TenantOpenApiController, EndpointOpenApiController],
  providers: [TenantOpenApiService, AuthenticatedKeyGuard],
})
export class TenantOpenApiModule {}
