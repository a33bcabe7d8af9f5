import { ConcurrencyLimitError, UpstreamTimeoutError } from '../../common/errors/app-error';
import { ProviderCallLimiter } from './provider-call-limiter';

/** A call that stays in flight until the test settles it. */
function pending<T = string>() {
  let settle!: { resolve: (value: T) => void; reject: (error: unknown) => void };
  const promise = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  return { promise, ...settle };
}

describe('ProviderCallLimiter', () => {
  const keyA1 = { tenantId: 'A', keyId: 'a1' };
  const keyA2 = { tenantId: 'A', keyId: 'a2' };
  const keyB1 = { tenantId: 'B', keyId: 'b1' };

  it('refuses a key past its bound and a tenant past its own, with Retry-After 1, before the call starts', async () => {
    const limiter = new ProviderCallLimiter({ maxProviderCallsPerTenant: 3, maxProviderCallsPerKey: 2 });
    const calls = [pending(), pending(), pending()];
    const running = [
      limiter.run(keyA1, () => calls[0].promise),
      limiter.run(keyA1, () => calls[1].promise),
      limiter.run(keyA2, () => calls[2].promise),
    ];
    const started = jest.fn(() => Promise.resolve('never'));
    const pastKey = limiter.run(keyA1, started);
    await expect(pastKey).rejects.toBeInstanceOf(ConcurrencyLimitError);
    await expect(pastKey).rejects.toMatchObject({ code: 'rate_limit_exceeded', retryAfterSeconds: 1 });
    await expect(limiter.run(keyA2, started)).rejects.toThrow(/this tenant has/);
    expect(started).not.toHaveBeenCalled();
    // Another tenant has bounds of its own.
    await expect(limiter.run(keyB1, () => Promise.resolve('b'))).resolves.toBe('b');
    expect(limiter.inFlight(keyA1)).toEqual({ tenant: 3, key: 2 });
    for (const call of calls) call.resolve('done');
    await Promise.all(running);
    expect(limiter.inFlight(keyA1)).toEqual({ tenant: 0, key: 0 });
    expect(limiter.inFlight(keyA2)).toEqual({ tenant: 0, key: 0 });
  });

  it('gives the slot back however the call ends: an answer, a failure, a timeout or an abort', async () => {
    const limiter = new ProviderCallLimiter({ maxProviderCallsPerTenant: 1, maxProviderCallsPerKey: 1 });
    await expect(limiter.run(keyA1, () => Promise.resolve('answer'))).resolves.toBe('answer');
    await expect(limiter.run(keyA1, () => Promise.reject(new Error('provider failed')))).rejects.toThrow(
      'provider failed',
    );
    await expect(limiter.run(keyA1, () => Promise.reject(new UpstreamTimeoutError('too slow')))).rejects.toThrow(
      'too slow',
    );
    const controller = new AbortController();
    const aborted = limiter.run(
      keyA1,
      () =>
        new Promise((_, reject) =>
          controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error)),
        ),
    );
    expect(limiter.inFlight(keyA1)).toEqual({ tenant: 1, key: 1 });
    controller.abort(new Error('client left'));
    await expect(aborted).rejects.toThrow('client left');
    await expect(
      limiter.run(keyA1, () => {
        throw new Error('thrown before any promise');
      }),
    ).rejects.toThrow('thrown before any promise');
    expect(limiter.inFlight(keyA1)).toEqual({ tenant: 0, key: 0 });
    await expect(limiter.run(keyA1, () => Promise.resolve('again'))).resolves.toBe('again');
  });
});
