import fc from 'fast-check';
import { adminCase, adminRequest } from './admin-cases';
import { fuzzParameters, PROPERTY_TIMEOUT_MS } from './fuzz-settings';
import { FuzzWorld, checkTheWorld } from './fuzz-world';
import { adminOperations, builtOpenApiDocument, operationKeys, type OpenApiDocument } from './openapi-document';

const document = builtOpenApiDocument();
const operations = adminOperations(document);

/**
 * Every admin operation of the OpenAPI document, called with bodies generated from its request schema (valid ones and
 * mutated ones), path ids of the tenant, of the other tenant and of nothing, query values in and out of their bounds,
 * by each kind of key. Every answer must keep the properties of `checkResponse`, and the service must still be healthy
 * after each operation's run.
 */
describe('admin API under fuzzing', () => {
  let world: FuzzWorld;

  beforeAll(async () => {
    world = await FuzzWorld.create();
    await world.createScratch('other.');
    await world.createScratch();
  }, 120_000);
  checkTheWorld(() => world);

  it('reads the operations from the same document the app under test serves', async () => {
    const served = await world.send({ method: 'GET', target: '/docs-json', headers: {} });
    // A difference means dist/ is older than the source: `npm run build` (npm run test:fuzz builds first).
    expect(operationKeys(served.json as OpenApiDocument)).toEqual(operationKeys(document));
    expect(operations.length).toBeGreaterThan(30);
    expect(
      operations
        .filter((operation) => operation.body)
        .every((operation) => Object.keys(operation.body!.properties ?? {}).length > 0),
    ).toBe(true);
  });

  for (const operation of operations) {
    it(
      `${operation.method.toUpperCase()} ${operation.path}`,
      async () => {
        // Operations that may change or delete the fixtures they target get fresh ones.
        if (operation.method !== 'get') await world.createScratch();
        await fc.assert(
          fc.asyncProperty(adminCase(document, operation), async (fuzzCase) => {
            await world.send(adminRequest(world, operation, fuzzCase));
          }),
          fuzzParameters(operation.body ? 60 : 40),
        );
      },
      PROPERTY_TIMEOUT_MS,
    );
  }
});
