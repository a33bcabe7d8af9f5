/**
 * The event streams each key has open on this instance, at most `maxPerKey` at once: a stream holds a connection,
 * a provider call and what waits to be sent for as long as it lasts, so one key cannot take them all. Counted in
 * process (a stream lives on the instance that serves its connection).
 */
export class OpenStreams {
  private readonly counts = new Map<string, number>();

  constructor(readonly maxPerKey: number) {}

  /**
   * Counts one more stream of `keyId` and answers what ends it (callable more than once), or null when the key has
   * `maxPerKey` open already.
   */
  open(keyId: string): (() => void) | null {
    const count = this.counts.get(keyId) ?? 0;
    if (count >= this.maxPerKey) return null;
    this.counts.set(keyId, count + 1);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      const left = (this.counts.get(keyId) ?? 1) - 1;
      if (left > 0) this.counts.set(keyId, left);
      else this.counts.delete(keyId);
    };
  }

  /** How many streams `keyId` has open. */
  countOf(keyId: string): number {
    return this.counts.get(keyId) ?? 0;
  }
}
