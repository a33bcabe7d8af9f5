import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyAuthenticator } from '../../common/auth/principal';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { InvalidationModule } from '../invalidation/invalidation.module';
import { TenantsModule } from '../tenants/tenants.module';
import { ApiKeyEntity } from './api-key.entity';
import { InitialAdminKeyService } from './initial-admin-key.service';
import { KeysController } from './keys.controller';
import { KeysRepository } from './keys.repository';
import { KeysService } from './keys.service';
import { SessionController } from './session.controller';

// Owns the api_keys table: creation (value shown once, hash stored), revocation, authentication.
// Exports KeysService and the ApiKeyAuthenticator port the guards use (the app module hands this module to
// CommonModule.forRoot, whose guards are below the modules and cannot import it).
@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity]), TenantsModule, EndpointsModule, InvalidationModule],
  controllers: [KeysController, SessionController],
  providers: [
    KeysRepository,
    KeysService,
    InitialAdminKeyService,
    { provide: ApiKeyAuthenticator, useExisting: KeysService },
  ],
  exports: [KeysService, ApiKeyAuthenticator],
})
export class KeysModule {}
