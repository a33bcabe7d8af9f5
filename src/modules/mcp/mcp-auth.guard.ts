import { Injectable } from '@nestjs/common';
import { AdminPrincipalGuard } from '../../common/auth/api-key.guard';

/** The MCP server: an admin key; an endpoint key → 403. */
@Injectable()
export class McpAuthGuard extends AdminPrincipalGuard {
  protected readonly refusal = 'The MCP server needs an admin key (epa_…)';
}
