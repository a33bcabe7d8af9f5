import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ForbiddenError } from '../errors/app-error';
import type { HttpRequestLike } from '../http/http-context';
import { principalOf } from '../http/request-context';

const ALLOW_READ_ONLY = 'promptgate:allowReadOnly';

/** Marks a POST that does not change anything (validate, test run) as open to ReadOnly keys. */
export const AllowReadOnly = () => SetMetadata(ALLOW_READ_ONLY, true);

/**
 * ReadOnly admin keys may read (GET) and call routes marked @AllowReadOnly(); every other method is a write and gets
 * 403. Deciding by method means a new write route is protected even if nobody remembers to mark it.
 */
@Injectable()
export class AdminPermissionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<HttpRequestLike>();
    if (principalOf(request).permission !== 'ReadOnly') return true;
    const method = (request.method ?? 'GET').toUpperCase();
    if (method === 'GET' || method === 'HEAD') return true;
    if (this.reflector.getAllAndOverride<boolean>(ALLOW_READ_ONLY, [context.getHandler(), context.getClass()])) {
      return true;
    }
    throw new ForbiddenError('This admin key is ReadOnly and cannot change resources');
  }
}
