import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AppLogger } from '../../common/logging/app-logger';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { TenantsService } from '../tenants/tenants.service';
import { KeysService } from './keys.service';

/** INITIAL_ADMIN_KEY (and INITIAL_TENANT) create a tenant and a ReadWrite admin key at start, once. */
@Injectable()
export class InitialAdminKeyService implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tenants: TenantsService,
    private readonly keys: KeysService,
    private readonly logger: AppLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const raw = this.config.initialAdminKey;
    if (!raw) return;
    const slug = this.config.initialTenant;
    const tenant = (await this.tenants.findBySlug(slug)) ?? (await this.tenants.create(slug));
    if (await this.keys.ensureAdminKey(tenant.id, raw, 'initial admin key')) {
      this.logger.log(`Created the initial admin key for tenant ${slug}`, 'InitialAdminKey');
    }
  }
}
