import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantEntity } from './tenant.entity';
import { TenantsRepository } from './tenants.repository';
import { TenantsService } from './tenants.service';

// Owns the tenants table (slug, name, plan); managed from the CLI.
// Exports TenantsService.
@Module({
  imports: [TypeOrmModule.forFeature([TenantEntity])],
  providers: [TenantsRepository, TenantsService],
  exports: [TenantsService],
})
export class TenantsModule {}
