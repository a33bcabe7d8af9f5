import { defineSlice, int } from '../variable';

export interface CacheBounds {
  /** What the in-process cache holds at most, over every tenant. */
  maxBytes: number;
  /** What one tenant's answers may hold of the in-process cache. */
  maxTenantBytes: number;
  /** The largest answer stored, in memory or Redis; a larger one is served but not stored. */
  maxEntryBytes: number;
}

/** The response cache's bounds, in bytes of stored JSON. */
export const cacheSlice = defineSlice({
  variables: {
    CACHE_MAX_BYTES: int(
      { min: 1024 },
      {
        default: 256 * 1024 * 1024,
        docDefault: '`268435456` (256 MiB)',
        meaning:
          'Bytes of JSON the in-process response cache holds over every tenant, at least 1024. Not used with `REDIS_URL` (Redis memory is its `maxmemory` setting).',
      },
    ),
    CACHE_MAX_TENANT_BYTES: int(
      { min: 1024 },
      {
        docDefault: 'a quarter of `CACHE_MAX_BYTES`',
        meaning:
          "Bytes of the in-process response cache one tenant's answers may hold (at most `CACHE_MAX_BYTES`); a tenant past it loses its own least recently used answers, never another tenant's.",
      },
    ),
    CACHE_MAX_ENTRY_BYTES: int(
      { min: 1024 },
      {
        default: 1024 * 1024,
        docDefault: '`1048576` (1 MiB)',
        meaning:
          "Largest entry stored in the response cache, in memory or Redis (at most the tenant share), as the JSON of the answer's body with what a hit replays beside it (the rendered prompt, the model's raw answer and its parsed output: two to four times the body); a larger one is served (`X-Cache: MISS`) and not stored.",
      },
    ),
  },
  // A tenant's share and an entry never exceed the whole.
  config: (values): { cache: CacheBounds } => {
    const maxBytes = values.CACHE_MAX_BYTES;
    const maxTenantBytes = Math.min(maxBytes, values.CACHE_MAX_TENANT_BYTES ?? Math.floor(maxBytes / 4));
    const maxEntryBytes = Math.min(maxTenantBytes, values.CACHE_MAX_ENTRY_BYTES);
    return { cache: { maxBytes, maxTenantBytes, maxEntryBytes } };
  },
});
