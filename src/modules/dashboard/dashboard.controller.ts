import { Controller, Get, Redirect } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

/**
 * `/` and `/dashboard` lead to the dashboard. The redirect is relative (`dashboard/`), so it also holds when a proxy
 * serves the service under another base path.
 */
@ApiExcludeController()
@Controller()
export class DashboardController {
  @Get()
  @Redirect('dashboard/', 302)
  root(): void {}

  @Get('dashboard')
  @Redirect('dashboard/', 302)
  dashboard(): void {}
}
