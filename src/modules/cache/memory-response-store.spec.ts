import { MemoryResponseStore } from './memory-response-store';

/** A clock the test moves by hand. */
class TestClock {
  ms = 1_000;
  now(): number {
    return this.ms;
  }
}

const text = (bytes: number, fill = 'x') => fill.repeat(bytes);
const a = (endpointId = 'ea') => ({ tenantId: 'tenant-a', endpointId });
const b = (endpointId = 'eb') => ({ tenantId: 'tenant-b', endpointId });

describe('MemoryResponseStore', () => {
  it('serves what was stored until its TTL passes on its clock', () => {
    const clock = new TestClock();
    const store = new MemoryResponseStore({ maxBytes: 10_000, maxTenantBytes: 5_000 }, clock);
    store.set(a(), 'k', '{"body":1}', 1_000);
    expect(store.get('k')).toBe('{"body":1}');
    clock.ms += 999;
    expect(store.get('k')).toBe('{"body":1}');
    clock.ms += 2;
    expect(store.get('k')).toBeUndefined();
    expect(store.bytes()).toBe(0);
  });

  it("holds a tenant's answers within its share, pushing out its own least recently used ones", () => {
    const store = new MemoryResponseStore({ maxBytes: 10_000, maxTenantBytes: 3_000 }, new TestClock());
    store.set(b(), 'b1', text(1_000), 60_000);
    store.set(a(), 'a1', text(1_000), 60_000);
    store.set(a(), 'a2', text(1_000), 60_000);
    store.set(a(), 'a3', text(1_000), 60_000);
    expect(store.get('a1')).toBeDefined(); // a1 is now the most recently used
    store.set(a(), 'a4', text(1_000), 60_000);
    expect(['a1', 'a2', 'a3', 'a4'].map((key) => store.get(key) !== undefined)).toEqual([true, false, true, true]);
    expect(store.bytes('tenant-a')).toBe(3_000);
    // Tenant B's answer is untouched by A filling its share.
    expect(store.get('b1')).toBe(text(1_000));
    expect(store.bytes()).toBe(4_000);
  });

  it('keeps all tenants within the whole by taking from the tenant holding the most', () => {
    const store = new MemoryResponseStore({ maxBytes: 4_000, maxTenantBytes: 3_000 }, new TestClock());
    store.set(b(), 'b1', text(1_000), 60_000);
    for (const key of ['a1', 'a2', 'a3']) store.set(a(), key, text(1_000), 60_000);
    expect(store.bytes()).toBe(4_000);
    store.set(b(), 'b2', text(1_000), 60_000);
    // A held the most: its oldest answer went, B kept both of its own.
    expect(store.get('a1')).toBeUndefined();
    expect([store.get('b1'), store.get('b2')].every((value) => value !== undefined)).toBe(true);
    expect(store.bytes()).toBe(4_000);
    expect(store.bytes('tenant-a')).toBe(2_000);
  });

  it('counts bytes of UTF-8, and never stores an answer larger than a share', () => {
    const store = new MemoryResponseStore({ maxBytes: 10_000, maxTenantBytes: 1_000 }, new TestClock());
    store.set(a(), 'wide', text(400, 'é'), 60_000);
    expect(store.bytes('tenant-a')).toBe(800);
    store.set(a(), 'huge', text(1_001), 60_000);
    expect(store.get('huge')).toBeUndefined();
    expect(store.get('wide')).toBeDefined();
  });

  it('replaces an answer under the same key, counting only the new one', () => {
    const store = new MemoryResponseStore({ maxBytes: 10_000, maxTenantBytes: 5_000 }, new TestClock());
    store.set(a(), 'k', text(1_000), 60_000);
    store.set(a(), 'k', text(300, 'y'), 60_000);
    expect(store.get('k')).toBe(text(300, 'y'));
    expect(store.bytes()).toBe(300);
  });

  it("removes exactly one endpoint's answers, expired ones included", () => {
    const clock = new TestClock();
    const store = new MemoryResponseStore({ maxBytes: 10_000, maxTenantBytes: 5_000 }, clock);
    store.set(a('e1'), 'resp:e1:1', '1', 60_000);
    store.set(a('e1'), 'resp:e1:2', '2', 10);
    store.set(a('e2'), 'resp:e2:1', '3', 60_000);
    store.set(b('e3'), 'resp:e3:1', '4', 60_000);
    clock.ms += 20;
    store.removeEndpoint('e1');
    expect(store.get('resp:e1:1')).toBeUndefined();
    expect(store.bytes('tenant-a')).toBe(1);
    expect([store.get('resp:e2:1'), store.get('resp:e3:1')]).toEqual(['3', '4']);
  });
});
