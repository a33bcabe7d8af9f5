import { Controller, Get, Header, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ExecutionExceptionFilter } from '../../common/http/exception-filters';
import {
  headerOf,
  type HttpRequestLike,
  type HttpResponseLike,
  setHeader,
  setStatus,
} from '../../common/http/http-context';
import { principalOf } from '../../common/http/request-context';
import { KeyThrottlerGuard } from '../../common/rate-limit/key-throttler.guard';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { DOCS_PAGE, DOCS_SCRIPT, DOCS_STYLE } from './docs-page';
import { AuthenticatedKeyGuard } from '../../common/auth/authenticated-key.guard';
import { callerHostOf, etagMatches } from './http-caching';
import { TenantOpenApiService } from './tenant-openapi.service';

/**
 * `GET {tenant_base_url}/api/v1/openapi.json`: the OpenAPI document of the endpoints the key may call, and
 * `GET /api/v1/docs`: Swagger UI for it. Executions are POST only, so these GET routes never shadow an endpoint.
 * Errors are the execution API's `{error, message}`.
 */
@ApiExcludeController()
@UseFilters(ExecutionExceptionFilter)
@Controller('api/v1')
export class TenantOpenApiController {
  constructor(private readonly openApi: TenantOpenApiService) {}

  /**
   * With a strong ETag (a hash of the document, which changes exactly when a definition it describes does);
   * `If-None-Match` with it answers 304 without a body. Counted in the key's admin window, not its execution windows.
   */
  @Get('openapi.json')
  @UseGuards(AuthenticatedKeyGuard, KeyThrottlerGuard)
  @RateLimit('admin')
  async document(
    @Req() request: HttpRequestLike,
    @Res({ passthrough: true }) response: HttpResponseLike,
  ): Promise<string> {
    const served = await this.openApi.documentFor(principalOf(request), callerHostOf(request));
    setHeader(response, 'ETag', served.etag);
    // Each key may see another document: shared caches must not keep it, clients revalidate with the ETag.
    setHeader(response, 'Cache-Control', 'private, no-cache');
    setHeader(response, 'Vary', 'x-api-key');
    setHeader(response, 'Content-Type', 'application/json; charset=utf-8');
    if (etagMatches(headerOf(request, 'if-none-match'), served.etag)) {
      setStatus(response, 304);
      return '';
    }
    return served.json;
  }

  @Get('docs')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  docsPage(): string {
    return DOCS_PAGE;
  }

  @Get('docs/tenant-docs.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  docsScript(): string {
    return DOCS_SCRIPT;
  }

  @Get('docs/tenant-docs.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  docsStyle(): string {
    return DOCS_STYLE;
  }
}
