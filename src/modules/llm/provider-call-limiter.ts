import { Inject, Injectable } from '@nestjs/common';
import { ConcurrencyLimitError } from '../../common/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

/** Whose provider calls are counted: the key that asked, and its tenant. */
export interface ProviderCaller {
  tenantId: string;
  keyId: string;
}

/** Seconds a refused caller is told to wait: a slot frees as soon as one of its calls ends. */
export const PROVIDER_CALLS_RETRY_AFTER_SECONDS = 1;

/**
 * Bounds the provider calls in flight per tenant (MAX_PROVIDER_CALLS_PER_TENANT) and per key
 * (MAX_PROVIDER_CALLS_PER_KEY), so one tenant holding calls open against a slow provider can take neither every
 * connection the service keeps to that provider nor the memory of thousands of open calls. The provider clients share
 * one pool of 1,024 connections per provider origin (http-fetch.ts); a call holds at most one of them at a time, and
 * the tenant bound is at most 512, so a tenant at its bound leaves at least half of them to the other tenants. A call
 * past either bound is refused at once with 429 `rate_limit_exceeded` and Retry-After: 1, before it reaches the
 * provider. The counts are this process's: with N instances a tenant may have N times the bound in flight.
 */
@Injectable()
export class ProviderCallLimiter {
  private readonly perTenant: number;
  private readonly perKey: number;
  private readonly tenants = new Map<string, number>();
  private readonly keys = new Map<string, number>();

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'maxProviderCallsPerTenant' | 'maxProviderCallsPerKey'>) {
    this.perTenant = config.maxProviderCallsPerTenant;
    this.perKey = config.maxProviderCallsPerKey;
  }

  /**
   * Runs `call` holding one of the caller's slots for as long as it runs (a whole stream included), and gives the slot
   * back however it ends: answer, failure, timeout or abort.
   */
  async run<T>(caller: ProviderCaller, call: () => Promise<T>): Promise<T> {
    const release = this.acquire(caller);
    try {
      return await call();
    } finally {
      release();
    }
  }

  /** The caller's calls in flight on this process. */
  inFlight(caller: ProviderCaller): { tenant: number; key: number } {
    return { tenant: this.tenants.get(caller.tenantId) ?? 0, key: this.keys.get(caller.keyId) ?? 0 };
  }

  /**
   * Takes one of the caller's slots, or refuses the call (429) when either bound is reached; the function returned
   * gives it back (once, however often it is called).
   */
  acquire({ tenantId, keyId }: ProviderCaller): () => void {
    const tenantCalls = this.tenants.get(tenantId) ?? 0;
    const keyCalls = this.keys.get(keyId) ?? 0;
    if (tenantCalls >= this.perTenant || keyCalls >= this.perKey) {
      const holder = keyCalls >= this.perKey ? 'this key has' : 'this tenant has';
      throw new ConcurrencyLimitError(
        `Too many model calls at once: ${holder} as many in flight as it may; retry after ${PROVIDER_CALLS_RETRY_AFTER_SECONDS} second`,
        PROVIDER_CALLS_RETRY_AFTER_SECONDS,
      );
    }
    this.tenants.set(tenantId, tenantCalls + 1);
    this.keys.set(keyId, keyCalls + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      decrement(this.tenants, tenantId);
      decrement(this.keys, keyId);
    };
  }
}

function decrement(counts: Map<string, number>, id: string): void {
  const left = (counts.get(id) ?? 1) - 1;
  if (left <= 0) counts.delete(id);
  else counts.set(id, left);
}
