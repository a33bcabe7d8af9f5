import { Module } from '@nestjs/common';
import { DashboardController } from './dashboard.controller';

// The web dashboard: its files are served by app.setup.ts (on either HTTP adapter) under DASHBOARD_PREFIX; this module
// owns the redirects that lead there. The dashboard itself talks to the admin API like any other client.
@Module({ controllers: [DashboardController] })
export class DashboardModule {}
