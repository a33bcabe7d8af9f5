import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { createHttpFetch, type FetchFunction } from './http-fetch';

/** The `fetch` every provider adapter sends with: through the egress proxy when one is configured (HTTPS_PROXY). */
@Injectable()
export class ProviderHttp implements OnApplicationShutdown {
  readonly fetch: FetchFunction;
  private readonly close: () => Promise<void>;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'egressProxy'>) {
    ({ fetch: this.fetch, close: this.close } = createHttpFetch(config.egressProxy));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }
}
