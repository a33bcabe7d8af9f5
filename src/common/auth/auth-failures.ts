import { LRUCache } from 'lru-cache';
import { isIPv6 } from 'node:net';

/** Client addresses whose failures are counted at once at most; beyond it the least recently failing are forgotten. */
const TRACKED_ADDRESSES = 10_000;
const WINDOW_MS = 60_000;

interface FailureWindow {
  count: number;
  resetAtMs: number;
}

/**
 * Failed authentications (401s) per client address, in fixed one-minute windows, in this instance's memory. An
 * address over `limitPerMinute` is refused (429) until its window ends, without its keys being looked up.
 */
export class AuthFailures {
  private readonly windows = new LRUCache<string, FailureWindow>({ max: TRACKED_ADDRESSES });

  constructor(
    private readonly limitPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `address` may try again: 0 while it is within its budget. */
  retryAfterSeconds(address: string): number {
    const window = this.windows.get(clientKeyOf(address));
    const now = this.now();
    if (!window || window.resetAtMs <= now || window.count < this.limitPerMinute) return 0;
    return Math.max(1, Math.ceil((window.resetAtMs - now) / 1000));
  }

  record(address: string): void {
    const key = clientKeyOf(address);
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || window.resetAtMs <= now) this.windows.set(key, { count: 1, resetAtMs: now + WINDOW_MS });
    else window.count++;
  }
}

/**
 * What a client address counts as: an IPv4 address itself (an IPv4-mapped IPv6 address as its IPv4 address), an
 * IPv6 address by its /64 network, the smallest block a single client is usually given, so that one client cannot
 * walk through the addresses of its own network to escape the limit.
 */
export function clientKeyOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head, tail = ''] = address.toLowerCase().split('%')[0].split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = address.includes('::') && tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
