import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  UseFilters,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import { AdminExceptionFilter } from '../http/exception-filters';
import { KeyThrottlerGuard } from '../rate-limit/key-throttler.guard';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { EnvelopeInterceptor } from '../http/envelope.interceptor';
import type { HttpRequestLike } from '../http/http-context';
import { principalOf } from '../http/request-context';
import { AdminKeyGuard } from './api-key.guard';
import { AdminPermissionGuard } from './admin-permission.guard';
import type { Principal } from './principal';

/**
 * Everything an admin controller needs: the key guard first (who is calling, checked by the pre-body check: 403 for
 * endpoint keys), then the per-key admin rate limit (the admin window) (it counts by that key, and every authenticated request, refused writes included, costs
 * the database), then the permission guard (which needs that principal), the success envelope, and the admin error
 * filter, so 401, 403 and 429 come in the envelope too.
 */
export const AdminRoute = () =>
  applyDecorators(
    UseGuards(AdminKeyGuard, KeyThrottlerGuard, AdminPermissionGuard),
    RateLimit('admin'),
    UseInterceptors(EnvelopeInterceptor),
    UseFilters(AdminExceptionFilter),
    ApiSecurity('api-key'),
    ApiBearerAuth('bearer'),
  );

/** The authenticated caller (from the request's context). */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal =>
  principalOf(context.switchToHttp().getRequest<HttpRequestLike>()),
);
