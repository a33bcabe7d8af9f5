import { AuthFailures, clientAddressOf, clientKeyOf, TrustedProxies } from './auth-failures';

describe('AuthFailures', () => {
  it('refuses an address over its budget until its window ends, and counts each address apart', () => {
    let now = 1_000_000;
    const failures = new AuthFailures(3, () => now);
    for (let i = 0; i < 3; i++) {
      expect(failures.retryAfterSeconds('10.0.0.1')).toBe(0);
      failures.record('10.0.0.1');
    }
    expect(failures.retryAfterSeconds('10.0.0.1')).toBe(60);
    expect(failures.retryAfterSeconds('10.0.0.2')).toBe(0);
    now += 59_500;
    expect(failures.retryAfterSeconds('10.0.0.1')).toBe(1);
    now += 500;
    expect(failures.retryAfterSeconds('10.0.0.1')).toBe(0);
    failures.record('10.0.0.1');
    expect(failures.retryAfterSeconds('10.0.0.1')).toBe(0);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as its IPv4 address', () => {
    const failures = new AuthFailures(2);
    failures.record('2001:db8:1:2::1');
    failures.record('2001:db8:1:2:ffff::9');
    expect(failures.retryAfterSeconds('2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd')).toBeGreaterThan(0);
    expect(failures.retryAfterSeconds('2001:db8:1:3::1')).toBe(0);
    failures.record('::ffff:192.0.2.7');
    failures.record('192.0.2.7');
    expect(failures.retryAfterSeconds('192.0.2.7')).toBeGreaterThan(0);
  });
});

describe('clientKeyOf', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::1', '0:0:0:0::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:DB8:0:0:1::', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['2001:0db8:0001:0002:0003:0004:0005:0006', '2001:db8:1:2::/64'],
  ])('%s counts as %s', (address, key) => {
    expect(clientKeyOf(address)).toBe(key);
  });
});

describe('clientAddressOf', () => {
  const proxies = new TrustedProxies(['10.0.0.0/8', '2001:db8::1']);

  it('is the TCP peer when no proxy is trusted, or the peer is not one', () => {
    expect(clientAddressOf('203.0.113.5', '198.51.100.1', new TrustedProxies([]))).toBe('203.0.113.5');
    expect(clientAddressOf('::ffff:203.0.113.5', '198.51.100.1', proxies)).toBe('203.0.113.5');
  });

  it('is the last forwarded address that is not a trusted proxy, when the peer is one', () => {
    expect(clientAddressOf('10.1.2.3', '198.51.100.1', proxies)).toBe('198.51.100.1');
    expect(clientAddressOf('::ffff:10.1.2.3', 'spoofed, 198.51.100.1, 10.9.9.9', proxies)).toBe('198.51.100.1');
    expect(clientAddressOf('2001:db8::1', ['192.0.2.1', '198.51.100.2'], proxies)).toBe('198.51.100.2');
  });

  it('stops at a malformed entry, and falls back to the proxy without one', () => {
    expect(clientAddressOf('10.1.2.3', '198.51.100.1, not-an-ip', proxies)).toBe('10.1.2.3');
    expect(clientAddressOf('10.1.2.3', undefined, proxies)).toBe('10.1.2.3');
    expect(clientAddressOf('10.1.2.3', '10.4.4.4', proxies)).toBe('10.4.4.4');
  });
});
