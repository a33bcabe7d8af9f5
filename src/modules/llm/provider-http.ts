import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { createHttpFetch, type FetchFunction, type ProviderFetch } from './http-fetch';

/** The `fetch` every provider adapter sends with: through the egress proxy when one is configured (HTTPS_PROXY). */
@Injectable()
export class ProviderHttp implements OnApplicationShutdown {
  private readonly sender: ProviderFetch;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'egressProxy'>) {
    this.sender = createHttpFetch(config.egressProxy);
  }

  get fetch(): FetchFunction {
    return this.sender.fetch;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sender.close();
  }
}
