import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { type AuthenticatedRequest, KeyAuthenticator } from '../../common/auth/api-key.guard';

/** Any key of the tenant, in x-api-key (as on the execution API): a tenant host that is not the key's tenant is a 401. */
@Injectable()
export class DocumentKeyGuard implements CanActivate {
  constructor(private readonly keys: KeyAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.keys.authenticate(context.switchToHttp().getRequest<AuthenticatedRequest>(), false);
    return true;
  }
}
