import fc from 'fast-check';
import { fuzzParameters, PROPERTY_TIMEOUT_MS } from './fuzz-settings';
import { FuzzWorld, checkTheWorld } from './fuzz-world';
import { describeResponse, checkResponse } from './response-properties';
import {
  bodilessBytes,
  bodilessCase,
  FIELD_LIMIT,
  fieldCountCase,
  inputValue,
  providerText,
  STREAM_MODELS,
  streamCase,
  streamProblem,
} from './shape-cases';

/** A request whose body the service has no use for is answered within this, whatever the body's size or promise. */
const PROMPT_ANSWER_MS = 5_000;

/**
 * Large shapes: endpoints with as many fields as allowed and more, streams of thousands of tiny pieces whose bytes
 * arrive cut at arbitrary places, and bodies (whole, chunked, or promised by Content-Length and never sent) on routes
 * that take none. Every answer keeps the properties of `checkResponse`; the service is healthy after each run.
 */
describe('large shapes under fuzzing', () => {
  let world: FuzzWorld;
  const streamPaths = new Map<string, string>();

  beforeAll(async () => {
    world = await FuzzWorld.create({}, { everyProvider: true });
    for (const model of STREAM_MODELS)
      for (const structured of [false, true]) {
        const endpoint = await world.createEndpoint(world.tenant, {
          name: `stream ${model}${structured ? ' structured' : ''}`,
          inputs: [{ name: 'text', dataType: 'string' }],
          outputs: structured ? [{ name: 'answer', dataType: 'string' }] : [],
          // A stream ends within this, or with an error: the raw client's 30 s are never reached.
          timeoutSeconds: 20,
        });
        await world.createPrompt(world.tenant, endpoint.id, { template: 'Say {{ inputs.text }}', llmModel: model });
        streamPaths.set(`${model}/${structured}`, endpoint.path);
      }
  }, 120_000);
  checkTheWorld(() => world);

  it(
    'endpoints with fields up to and past the limit',
    async () => {
      await fc.assert(
        fc.asyncProperty(fieldCountCase, async (fuzzCase) => {
          const endpoint = await world.createEndpoint(world.tenant, { name: 'many fields' });
          const route = `/admin/v1/endpoints/${endpoint.id}/${fuzzCase.kind}-fields`;
          const created: string[] = [];
          let refusals = 0;
          for (const [index, dataType] of fuzzCase.dataTypes.entries()) {
            const name = `f${index}`;
            const response = await world.send({
              method: 'POST',
              target: route,
              headers: { 'x-api-key': world.tenant.readWrite, 'content-type': 'application/json' },
              body: JSON.stringify({ name, dataType }),
            });
            // A field is added, or, once the list holds FIELD_LIMIT fields, refused with a 400 naming the list (and
            // every later one too); nothing else. A service without the bound adds them all.
            const list = `${fuzzCase.kind}Fields`;
            const isRefusalAtLimit =
              response.status === 400 &&
              created.length >= FIELD_LIMIT &&
              (response.json as { messages: string[] }).messages.some((message) => message.includes(list));
            if (response.status === 201 && refusals === 0) created.push(name);
            else if (isRefusalAtLimit) refusals++;
            else throw new Error(`field ${index + 1} (${created.length} added): ${describeResponse(response)}`);
          }
          // What is stored is exactly what was answered as added.
          const stored = await world.admin(world.tenant, 'GET', `/admin/v1/endpoints/${endpoint.id}`);
          const fields = (fuzzCase.kind === 'input' ? stored.inputFields : stored.outputFields) as { name: string }[];
          expect(fields.map((field) => field.name).sort()).toEqual([...created].sort());
          // The endpoint still executes, with every input field given (mock-echo fills every output field).
          await world.createPrompt(world.tenant, endpoint.id, { template: 'Fields' });
          const inputs = Object.fromEntries(
            fuzzCase.kind === 'input'
              ? fuzzCase.dataTypes
                  .map((dataType, index) => [`f${index}`, inputValue(dataType, index)] as const)
                  .filter(([name]) => created.includes(name))
              : [],
          );
          const execution = await world.send({
            method: 'POST',
            target: endpoint.path,
            headers: { 'x-api-key': world.tenant.endpoint, 'content-type': 'application/json' },
            body: JSON.stringify(inputs),
          });
          if (execution.status !== 200) throw new Error(`the execution answered ${describeResponse(execution)}`);
        }),
        fuzzParameters(8),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'streams of many tiny pieces, their bytes cut anywhere',
    async () => {
      await fc.assert(
        fc.asyncProperty(streamCase, async (fuzzCase) => {
          world.fake.reset();
          world.fake.reply({ text: providerText(fuzzCase), stream: fuzzCase.shape });
          const request = {
            method: 'POST',
            target: streamPaths.get(`${fuzzCase.model}/${fuzzCase.structured}`)!,
            headers: {
              'x-api-key': world.tenant.endpoint,
              'content-type': 'application/json',
              accept: 'text/event-stream',
            },
            body: JSON.stringify({ text: 'stream' }),
          };
          const response = await world.send(request);
          const problem = streamProblem(fuzzCase, response);
          if (problem) throw new Error(`${problem}\n  response: ${describeResponse(response)}`);
        }),
        fuzzParameters(48),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'bodies on routes that take none, answered at once',
    async () => {
      await fc.assert(
        fc.asyncProperty(bodilessCase, async (fuzzCase) => {
          const bytes = bodilessBytes(fuzzCase);
          const started = performance.now();
          const response = await world.client.sendBytes(bytes, PROMPT_ANSWER_MS);
          const [method, target] = fuzzCase.target;
          checkResponse({ method, target, headers: {} }, response);
          const elapsedMs = performance.now() - started;
          if (elapsedMs > PROMPT_ANSWER_MS)
            throw new Error(`answered after ${Math.round(elapsedMs)} ms: ${describeResponse(response)}`);
        }),
        fuzzParameters(120),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
