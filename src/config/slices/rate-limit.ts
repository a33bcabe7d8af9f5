import { isIP } from 'node:net';
import { defineSlice, int, text } from '../variable';

/** The limits on how much one key, tenant or client address may ask for. */
export const rateLimitSlice = defineSlice({
  variables: {
    ADMIN_RATE_LIMIT_PER_MINUTE: int(
      { min: 1 },
      {
        default: 600,
        meaning: 'Requests per minute each key may make to the admin API and MCP.',
      },
    ),
    SCORE_RATE_LIMIT_PER_MINUTE: int(
      { min: 1 },
      {
        default: 600,
        meaning:
          'Scores per minute each key may record through `POST /api/v1/_scores`, counted apart from its execution limits.',
      },
    ),
    AUTH_FAILURES_PER_MINUTE: int(
      { min: 1 },
      {
        default: 100,
        meaning:
          "Failed authentications (401s) one client address may have per minute on an instance; beyond it its requests get 429 with `Retry-After` until the minute ends, except with a key the instance has served lately. The address is the TCP peer's, or the one `X-Forwarded-For` names when the peer is one of `TRUSTED_PROXIES`; an IPv6 client counts by its /64.",
      },
    ),
    TRUSTED_PROXIES: text({
      docDefault: '(none)',
      meaning:
        'Comma-separated addresses or CIDR blocks of the proxies in front of the service (`10.0.0.0/8,fd00::/8`). A request from one of them is counted for `AUTH_FAILURES_PER_MINUTE` under the last address in its `X-Forwarded-For` that is not a listed proxy; from any other peer the header is ignored.',
    }),
    MAX_PROVIDER_CALLS_PER_TENANT: int(
      { min: 1, max: 512 },
      {
        default: 256,
        meaning:
          'Model calls one tenant may have in flight on this instance (1 to 512); past it 429 `rate_limit_exceeded` with `Retry-After: 1`.',
      },
    ),
    MAX_PROVIDER_CALLS_PER_KEY: int(
      { min: 1, max: 512 },
      {
        default: 64,
        meaning:
          'Model calls one key may have in flight on this instance (1 to 512); past it 429 `rate_limit_exceeded` with `Retry-After: 1`.',
      },
    ),
    MAX_STREAMS_PER_KEY: int(
      { min: 1 },
      {
        default: 100,
        meaning:
          'Event streams one key may have open at once on an instance; one more is answered 429 `rate_limit_exceeded` with `Retry-After`.',
      },
    ),
  },
  config: (values) => ({
    adminRateLimitPerMinute: values.ADMIN_RATE_LIMIT_PER_MINUTE,
    /** Scores each key may record per minute through the execution API, apart from its execution limits. */
    scoreRateLimitPerMinute: values.SCORE_RATE_LIMIT_PER_MINUTE,
    /**
     * Failed authentications (401s) one client address may have per minute on an instance; beyond it its requests get
     * 429 until the minute ends, unless they present a key the instance knows to be valid.
     */
    authFailuresPerMinute: values.AUTH_FAILURES_PER_MINUTE,
    /** Addresses and CIDR blocks of the proxies whose X-Forwarded-For names the client address. */
    trustedProxies: trustedProxiesOf(values.TRUSTED_PROXIES),
    /** Provider calls one tenant may have in flight on this instance; past it 429. */
    maxProviderCallsPerTenant: values.MAX_PROVIDER_CALLS_PER_TENANT,
    /** Provider calls one key may have in flight on this instance; past it 429. */
    maxProviderCallsPerKey: values.MAX_PROVIDER_CALLS_PER_KEY,
    /** Event streams one key may have open at once on this instance; one more is answered 429. */
    maxStreamsPerKey: values.MAX_STREAMS_PER_KEY,
  }),
  problems: (raw) => trustedProxyProblems(raw.TRUSTED_PROXIES),
});

/** TRUSTED_PROXIES as a list of addresses and CIDR blocks. */
function trustedProxiesOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** The problem of each TRUSTED_PROXIES entry that is not an IP address or a CIDR block. */
function trustedProxyProblems(value: string | undefined): string[] {
  return trustedProxiesOf(value)
    .filter((entry) => {
      const [address, prefix, ...rest] = entry.split('/');
      const family = isIP(address);
      const maxPrefix = family === 6 ? 128 : 32;
      const isValidPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix);
      return family === 0 || !isValidPrefix || rest.length > 0;
    })
    .map((entry) => `TRUSTED_PROXIES must be comma-separated IP addresses or CIDR blocks (${entry})`);
}
