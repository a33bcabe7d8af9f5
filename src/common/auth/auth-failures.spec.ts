import { AuthFailures, clientKeyOf } from './auth-failures';

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
