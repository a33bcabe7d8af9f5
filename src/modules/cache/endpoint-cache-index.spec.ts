import { MemoryEndpointCacheIndex } from './endpoint-cache-index';

describe('MemoryEndpointCacheIndex', () => {
  it('takes exactly the keys of one endpoint, once', async () => {
    const index = new MemoryEndpointCacheIndex(100);
    await index.add('e1', 'resp:e1:a', 60_000);
    await index.add('e2', 'resp:e2:a', 60_000);
    await index.add('e1', 'resp:e1:b', 60_000);
    expect((await index.take('e1')).sort()).toEqual(['resp:e1:a', 'resp:e1:b']);
    expect(await index.take('e1')).toEqual([]);
    expect(await index.take('e2')).toEqual(['resp:e2:a']);
  });

  it('forgets keys whose entries expired, and holds at most its bound', async () => {
    const index = new MemoryEndpointCacheIndex(2);
    await index.add('e1', 'short', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await index.take('e1')).toEqual([]);
    for (const key of ['k1', 'k2', 'k3']) await index.add('e1', key, 60_000);
    expect((await index.take('e1')).sort()).toEqual(['k2', 'k3']);
  });
});
