import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantsModule } from '../tenants/tenants.module';
import { PromptVersionEntity } from './prompt-version.entity';
import { VersionsRepository } from './versions.repository';
import { VersionsService } from './versions.service';

// Owns the prompt_versions table: immutable numbered versions, plan retention and compare (never imports prompts).
// Exports VersionsService; the version routes live in the prompts module, which checks the prompt first.
@Module({
  imports: [TypeOrmModule.forFeature([PromptVersionEntity]), TenantsModule],
  providers: [VersionsRepository, VersionsService],
  exports: [VersionsService],
})
export class VersionsModule {}
