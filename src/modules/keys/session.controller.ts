import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { SessionResponse } from './dto/session.response';
import { KeysService } from './keys.service';

@ApiTags('keys')
@AdminRoute()
@Controller('admin/v1/session')
export class SessionController {
  constructor(private readonly keys: KeysService) {}

  /** The presented admin key and its tenant (name, slug, plan): what a client shows after signing in. */
  @Get()
  @ApiOperation({ operationId: 'getSession', summary: 'Who the presented admin key is' })
  @ApiEnvelope(SessionResponse)
  get(@CurrentPrincipal() principal: Principal): Promise<SessionResponse> {
    return this.keys.session(principal.tenantId, principal.keyId);
  }
}
