import fc from 'fast-check';
import { headerCase, headerRequest, RAW_REQUESTS, rawRequestBytes, rawTarget } from './header-cases';
import { fuzzParameters, PROPERTY_TIMEOUT_MS } from './fuzz-settings';
import { FuzzWorld, checkTheWorld } from './fuzz-world';
import { checkResponse } from './response-properties';

/**
 * Admin reads and writes, executions, /health and unknown paths sent with odd headers: Host values (a tenant's, the
 * other tenant's, a trailing dot, ports that are not digits, repeated), keys with spaces, case changes, repeats and
 * thousands of characters, Bearer variants, content types and encodings, cache-bypass and request-id values; then
 * whole requests written byte by byte. Every answer keeps the properties of `checkResponse`.
 */
describe('odd headers and request heads', () => {
  let world: FuzzWorld;

  beforeAll(async () => {
    world = await FuzzWorld.create();
  }, 120_000);
  checkTheWorld(() => world);

  it(
    'requests with generated headers',
    async () => {
      await fc.assert(
        fc.asyncProperty(headerCase, async (fuzzCase) => {
          await world.send(headerRequest(world, fuzzCase));
        }),
        fuzzParameters(400),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'requests written byte by byte',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...RAW_REQUESTS), async (template) => {
          const bytes = rawRequestBytes(world, template);
          checkResponse(rawTarget(bytes), await world.client.sendBytes(bytes));
        }),
        {
          ...fuzzParameters<[string]>(RAW_REQUESTS.length * 2),
          examples: RAW_REQUESTS.map((template): [string] => [template]),
        },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
