import { UpstreamTimeoutError } from '../../common/errors/app-error';
import { withDeadline } from './execution-clock';

/** Work that fails with its signal's reason once it aborts, on a later turn as a provider call does. */
function untilAborted(seen: AbortSignal[]) {
  return (signal: AbortSignal) => {
    seen.push(signal);
    return new Promise<never>((_, reject) => {
      signal.addEventListener('abort', () => setImmediate(() => reject(signal.reason as Error)), { once: true });
    });
  };
}

describe('withDeadline', () => {
  it('answers the work, and times out with the message when the time runs out (its signal aborted)', async () => {
    await expect(withDeadline(1000, 30, () => Promise.resolve('answer'))).resolves.toBe('answer');
    const seen: AbortSignal[] = [];
    await expect(withDeadline(5, 30, untilAborted(seen), 'too slow')).rejects.toEqual(
      new UpstreamTimeoutError('too slow'),
    );
    expect(seen[0].aborted).toBe(true);
  });

  it("aborts the work's signal with the reason of the signal it stops on", async () => {
    const client = new AbortController();
    const seen: AbortSignal[] = [];
    const running = withDeadline(60_000, 60, untilAborted(seen), undefined, client.signal);
    const gone = new Error('client left');
    client.abort(gone);
    await expect(running).rejects.toBe(gone);
    expect(seen[0].reason).toBe(gone);
  });

  it('starts with an aborted signal when the signal it stops on already fired', async () => {
    const client = new AbortController();
    const gone = new Error('client left');
    client.abort(gone);
    const seen: AbortSignal[] = [];
    await expect(
      withDeadline(
        60_000,
        60,
        (signal) => {
          seen.push(signal);
          return Promise.resolve(signal.aborted);
        },
        undefined,
        client.signal,
      ),
    ).resolves.toBe(true);
    expect(seen[0].reason).toBe(gone);
  });

  it('leaves no listener on the signal it stops on once the work is done', async () => {
    const client = new AbortController();
    const seen: AbortSignal[] = [];
    await withDeadline(60_000, 60, () => Promise.resolve('answer'), undefined, client.signal);
    await expect(withDeadline(5, 30, untilAborted(seen), 'too slow', client.signal)).rejects.toBeInstanceOf(
      UpstreamTimeoutError,
    );
    // Aborting the client now reaches neither call's signal: the timed-out one keeps the deadline's reason.
    client.abort(new Error('late'));
    expect(seen[0].reason).not.toBeInstanceOf(Error);
    expect((seen[0].reason as DOMException).name).toBe('AbortError');
  });
});
