import fc from 'fast-check';
import {
  EVERY_INPUT_TEMPLATE,
  EVERY_INPUT_TYPE,
  executionCase,
  executionRequest,
  type FuzzedEndpoint,
  type InputFieldSpec,
} from './execution-cases';
import { fuzzParameters, PROPERTY_TIMEOUT_MS } from './fuzz-settings';
import { FuzzWorld, checkTheWorld } from './fuzz-world';

interface EndpointSetup {
  inputs: InputFieldSpec[];
  outputs?: object[];
  template: string;
  llmModel: string;
  settings?: Record<string, unknown>;
  runs: number;
}

const IMAGE_INPUTS: InputFieldSpec[] = [
  { name: 'prompt', dataType: 'string', isRequired: true, maxLength: 4000 },
  { name: 'style', dataType: 'string' },
  { name: 'count', dataType: 'integer', minimum: 1, maximum: 4 },
];

/**
 * The endpoints executions are fuzzed on: every input data type without and with the response cache, with output
 * fields (structured output), through the fake provider's OpenAI wire format (text and images), and a Private one.
 */
const ENDPOINTS: Record<string, EndpointSetup> = {
  everyType: {
    inputs: EVERY_INPUT_TYPE,
    outputs: [
      { name: 'summary', dataType: 'string' },
      { name: 'score', dataType: 'integer' },
      { name: 'ok', dataType: 'boolean' },
      { name: 'details', dataType: 'object' },
      { name: 'items', dataType: 'array' },
    ],
    template: EVERY_INPUT_TEMPLATE,
    llmModel: 'mock-echo',
    runs: 200,
  },
  everyTypeCached: {
    inputs: EVERY_INPUT_TYPE,
    template: EVERY_INPUT_TEMPLATE,
    llmModel: 'mock-echo',
    settings: { cacheEnabled: true, cacheDurationSeconds: 60 },
    runs: 200,
  },
  provider: {
    inputs: EVERY_INPUT_TYPE,
    template: EVERY_INPUT_TEMPLATE,
    llmModel: 'gpt-4o-mini',
    settings: { cacheEnabled: true },
    runs: 120,
  },
  image: {
    inputs: IMAGE_INPUTS,
    outputs: [{ name: 'image', dataType: 'image', exampleValue: '{"size":"1024x1024","quality":"low"}' }],
    template: 'A picture of {{ inputs.prompt }} in the style {{ inputs.style | default: "plain" }}',
    llmModel: 'gpt-image-1',
    runs: 80,
  },
  imageCached: {
    inputs: IMAGE_INPUTS,
    outputs: [{ name: 'image', dataType: 'image' }],
    template: 'A picture of {{ inputs.prompt }}',
    llmModel: 'gpt-image-1',
    settings: { cacheEnabled: true },
    runs: 60,
  },
  private: {
    inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    template: 'Private: {{ inputs.text }}',
    llmModel: 'mock-echo',
    settings: { visibility: 'Private' },
    runs: 40,
  },
};

/**
 * Executions with generated inputs of every field type, valid and mutated, by each kind of key, with prompt selectors,
 * cache bypass values and odd paths. Every answer must keep the properties of `checkResponse`, and the service must
 * still be healthy after each endpoint's run. The fake provider is never told to fail, so no 502 or 504 is expected.
 */
describe('execution API under fuzzing', () => {
  let world: FuzzWorld;
  const endpoints: FuzzedEndpoint[] = [];

  beforeAll(async () => {
    world = await FuzzWorld.create();
    await world.createScratch('other.');
    const otherPrompt = await world.admin(world.other, 'GET', `/admin/v1/prompts/${world.refs.get('other.prompt')}`);
    world.refs.set('other.prompt.slug', otherPrompt.slug);
    for (const [name, setup] of Object.entries(ENDPOINTS)) {
      const endpoint = await world.createEndpoint(world.tenant, {
        name,
        inputs: setup.inputs,
        outputs: setup.outputs,
        ...setup.settings,
      });
      await world.createPrompt(world.tenant, endpoint.id, { template: setup.template, llmModel: setup.llmModel });
      const alt = await world.createPrompt(
        world.tenant,
        endpoint.id,
        { template: `Alt ${setup.template}`, llmModel: setup.llmModel },
        'Live',
      );
      const draft = await world.createPrompt(
        world.tenant,
        endpoint.id,
        { template: `Draft ${setup.template}`, llmModel: setup.llmModel },
        'Draft',
      );
      world.refs.set(`${name}.path`, endpoint.path);
      world.refs.set(`${name}.alt`, alt.slug);
      world.refs.set(`${name}.draft`, draft.slug);
      endpoints.push({ name, inputs: setup.inputs });
    }
  }, 120_000);
  checkTheWorld(() => world);

  for (const [name, setup] of Object.entries(ENDPOINTS)) {
    it(
      `executions of the ${name} endpoint`,
      async () => {
        const endpoint = endpoints.find((candidate) => candidate.name === name)!;
        await fc.assert(
          fc.asyncProperty(executionCase([endpoint]), async (fuzzCase) => {
            await world.send(executionRequest(world, fuzzCase));
          }),
          fuzzParameters(setup.runs),
        );
      },
      PROPERTY_TIMEOUT_MS,
    );
  }
});
