import { LRUCache } from 'lru-cache';
import { BlockList, isIP, isIPv6 } from 'node:net';

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
    // No failure counted anywhere (the usual case): no address needs its key worked out.
    if (this.windows.size === 0) return 0;
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
  // An IPv6 address, mapped or not, has a colon: any other address is its own key.
  if (!address.includes(':')) return address;
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

/** The proxies (TRUSTED_PROXIES: addresses and CIDR blocks) whose X-Forwarded-For names the client. */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly isEmpty: boolean;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address, prefix] = entry.split('/');
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.list.addAddress(address, family);
      else this.list.addSubnet(address, Number(prefix), family);
    }
    this.isEmpty = entries.length === 0;
  }

  includes(address: string): boolean {
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && this.list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  }
}

/**
 * The client's address: the TCP peer's, or, when the peer is a trusted proxy, the last address in X-Forwarded-For
 * that is not one (each proxy appends the address it received the request from, so the addresses before it could
 * have been written by the client itself). A malformed entry stops the walk at the proxy that passed it on.
 */
export function clientAddressOf(
  peer: string,
  forwardedFor: string | string[] | undefined,
  proxies: TrustedProxies,
): string {
  if (proxies.isEmpty || !proxies.includes(peer)) return unmapped(peer);
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  let client = unmapped(peer);
  for (let index = hops.length - 1; index >= 0; index--) {
    if (isIP(hops[index]) === 0) break;
    client = unmapped(hops[index]);
    if (!proxies.includes(client)) break;
  }
  return client;
}

function unmapped(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}
