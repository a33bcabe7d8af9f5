import { ApiKeyAuthenticator, type Principal } from '../../src/common/auth/principal';
import { AppLogger } from '../../src/common/logging/app-logger';
import { APP_CONFIG } from '../../src/config/app-config';
import { BudgetSpendingService } from '../../src/modules/budgets/budget-spending.service';
import { ResponseCacheService } from '../../src/modules/cache/response-cache.service';
import { EndpointsService } from '../../src/modules/endpoints/endpoints.service';
import { ClientDeparture } from '../../src/modules/execution/client-departure';
import type {
  ApiCall,
  EvalCall,
  ExecutionCall,
  ExecutionObserver,
  ObservedPrompt,
} from '../../src/modules/execution/execution-call';
import type { CacheStatus, ExecutionOutcome } from '../../src/modules/execution/execution-outcome';
import { ExecutionService, testRunAnswer } from '../../src/modules/execution/execution.service';
import { ProviderError, type LlmClient, type TextRequest } from '../../src/modules/llm/llm-client';
import type { LlmRegistry } from '../../src/modules/llm/llm-registry';
import { ProviderCallLimiter } from '../../src/modules/llm/provider-call-limiter';
import { ExecutionLogReadsService } from '../../src/modules/logs/execution-log-reads.service';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { ModelsService } from '../../src/modules/models/models.service';
import { PromptSelectionService } from '../../src/modules/prompts/prompt-selection.service';
import { PromptsService } from '../../src/modules/prompts/prompts.service';
import { TemplateService } from '../../src/modules/prompts/template/template.service';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { type SeededTenant, seedTenant } from '../support/seed';
import { createTestApp, type TestApp } from '../support/test-app';
import { FakeLlmClient } from './fake-llm-client';

/** The rendered prompt's bound here: a body that renders past it fails in the render stage. */
const MAX_RENDERED_BYTES = 2000;

/**
 * ExecutionService through its stages (validate → select → cache lookup → render → attempts → store → log), on the
 * real database and the real prompts, cache and logs, with a fake LlmClient in place of the providers: what each stage
 * records in the outcome and the log row, and what an observer is told, in order.
 */
describe('ExecutionService (medium)', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let principal: Principal;
  let service: ExecutionService;
  let logs: ExecutionLogsService;
  let logReads: ExecutionLogReadsService;
  let providerCalls: ProviderCallLimiter;
  const client = new FakeLlmClient();
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp(
      { maxRenderedPromptBytes: MAX_RENDERED_BYTES },
      // Providers configured (their models callable), never reached: the fake client answers for every provider.
      { OPENAI_API_KEY: 'sk-test-openai', ANTHROPIC_API_KEY: 'sk-test-anthropic' },
    );
    tenant = await seedTenant(t.app);
    principal = (await t.app.get(ApiKeyAuthenticator).authenticate(tenant.endpointKey))!;
    logs = t.app.get(ExecutionLogsService);
    logReads = t.app.get(ExecutionLogReadsService);
    providerCalls = t.app.get(ProviderCallLimiter);
    const registry = { clientFor: (): LlmClient => client } as unknown as LlmRegistry;
    service = new ExecutionService(
      t.app.get(EndpointsService),
      t.app.get(PromptSelectionService),
      t.app.get(PromptsService),
      t.app.get(TemplateService),
      t.app.get(ModelsService),
      registry,
      providerCalls,
      logs,
      t.app.get(ResponseCacheService),
      t.app.get(BudgetSpendingService),
      t.app.get(APP_CONFIG),
      t.app.get(AppLogger),
    );
  });
  afterAll(() => t.close());
  beforeEach(() => client.reset());

  /** An endpoint with a required `text` input whose default prompt is `template` on gpt-4o-mini. */
  async function endpointWith(
    settings: Record<string, unknown> = {},
    prompt: { template?: string; fallbackModels?: { llmModel: string }[] } = {},
  ) {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
      ...settings,
    });
    const created = await createPrompt(t, tenant.admin, endpoint.id, {
      template: 'Say {{ inputs.text }}',
      llmModel: 'gpt-4o-mini',
      ...prompt,
    });
    const definition = await t.app.get(EndpointsService).getDefinition(tenant.id, endpoint.id);
    return { definition, promptId: created.id, slug: created.slug };
  }

  function apiCall(definition: ApiCall['definition'], body: unknown, extra: Partial<ApiCall> = {}): ApiCall {
    return {
      kind: 'api',
      principal,
      definition,
      requestId: `medium-${++sequence}`,
      body,
      tags: {},
      prompt: {},
      cache: { bypass: false },
      ...extra,
    };
  }

  /** The log row of a call (flushed first: the row is written off the request path). */
  async function logRowOf(call: ExecutionCall) {
    await logs.flush();
    const page = await logReads.list(tenant.id, { requestId: call.requestId });
    expect(page.items).toHaveLength(1);
    return page.items[0];
  }

  describe('select the prompt', () => {
    it('an Api call runs the default prompt, rendered with its inputs, logged with source Api', async () => {
      const { definition, promptId } = await endpointWith();
      const call = apiCall(definition, { text: 'hello' });
      const outcome = await service.run(call);
      expect(outcome).toMatchObject({ status: 'success', body: 'Say hello', assignment: 'default' });
      expect(outcome.prompt?.id).toBe(promptId);
      expect(client.calls.map((request) => request.prompt)).toEqual(['Say hello']);
      expect(await logRowOf(call)).toMatchObject({ source: 'Api', status: 'success', promptId, assignment: 'default' });
    });

    it('a selector pins a Live prompt by its slug', async () => {
      const { definition } = await endpointWith();
      const other = await createPrompt(
        t,
        tenant.admin,
        definition.endpoint.id,
        { template: 'Other {{ inputs.text }}', llmModel: 'gpt-4o-mini' },
        'Live',
      );
      const outcome = await service.run(apiCall(definition, { text: 'x' }, { prompt: { selector: other.slug } }));
      expect(outcome).toMatchObject({ status: 'success', body: 'Other x', assignment: 'pinned' });
      expect(outcome.prompt?.id).toBe(other.id);
    });

    it('a test run runs the Draft prompt it names, logged with source TestPage', async () => {
      const { definition } = await endpointWith();
      const draft = await createPrompt(
        t,
        tenant.admin,
        definition.endpoint.id,
        { template: 'Draft {{ inputs.text }}', llmModel: 'gpt-4o-mini' },
        'Draft',
      );
      const call = await service.testRunCall(
        principal,
        definition.endpoint.id,
        { promptId: draft.id },
        { text: 'y' },
        'medium-test',
        {},
      );
      const answer = testRunAnswer(await service.runTest(call));
      expect(answer).toMatchObject({ output: 'Draft y' });
      const row = await logReads.get(tenant.id, answer.logId);
      expect(row).toMatchObject({ source: 'TestPage', promptId: draft.id, assignment: 'pinned' });
    });

    it('an MCP call is logged with source Internal and never uses the cache', async () => {
      const { definition } = await endpointWith({ cacheEnabled: true, cacheDurationSeconds: 60 });
      const call: ExecutionCall = {
        kind: 'mcp',
        principal,
        definition,
        requestId: `mcp-${++sequence}`,
        tags: {},
        body: { text: 'm' },
        prompt: {},
      };
      const outcome = await service.run(call);
      expect(outcome).toMatchObject({ status: 'success', cache: null });
      expect(await logRowOf(call)).toMatchObject({ source: 'Internal', cached: false });
    });
  });

  describe('an evaluation item', () => {
    it('runs the prompt version it is given, without the cache or a provider-call slot, logged with source Eval and its tags', async () => {
      const { definition, promptId, slug } = await endpointWith({ cacheEnabled: true, cacheDurationSeconds: 60 });
      const pinned = {
        id: promptId,
        endpointId: definition.endpoint.id,
        name: 'Evaluated',
        slug,
        status: 'Draft' as const,
        version: 7,
        template: 'Evaluate {{ inputs.text }}',
        llmModel: 'gpt-4o-mini',
        temperature: 0,
        maxTokens: 100,
        customParameters: {},
        retries: 0,
        fallbackModels: [],
      };
      const call: EvalCall = {
        kind: 'eval',
        principal,
        definition,
        requestId: `eval-${++sequence}`,
        body: { text: 'e' },
        tags: { eval_run: 'run-1' },
        prompt: pinned,
      };
      const slots = providerCalls.inFlight(principal);
      client.answer('gpt-4o-mini', { text: 'first' }, { text: 'second' });
      const started = service.runForEvaluation(call);
      await client.nextCall();
      expect(providerCalls.inFlight(principal)).toEqual(slots);
      const first = await started;
      expect(first.outcome).toMatchObject({ status: 'success', cache: null, renderedPrompt: 'Evaluate e' });
      const again = await service.runForEvaluation({ ...call, requestId: `eval-${++sequence}` });
      expect(again.outcome).toMatchObject({ status: 'success', cache: null, body: 'second' });
      expect(client.calls).toHaveLength(2);
      await logs.flush();
      const row = await logReads.get(tenant.id, first.logId);
      expect(row).toMatchObject({
        source: 'Eval',
        promptId,
        promptVersion: 7,
        assignment: 'pinned',
        cached: false,
        tags: { eval_run: 'run-1' },
      });
    });
  });

  describe('validate', () => {
    it('a body off the input fields fails before a prompt is selected or a model called', async () => {
      const { definition } = await endpointWith();
      const call = apiCall(definition, { text: 42 });
      const outcome = await service.run(call);
      expect(outcome).toMatchObject({ status: 'error', prompt: null, assignment: null, cache: null, attempts: [] });
      expect((outcome as { error: unknown }).error).toMatchObject({ code: 'validation_error' });
      expect(client.calls).toHaveLength(0);
      expect(await logRowOf(call)).toMatchObject({ status: 'error', errorCode: 'validation_error', promptId: null });
    });
  });

  describe('cache lookup and store', () => {
    it('a miss calls the model and stores the answer; the same call then hits without a call; a bypass skips it', async () => {
      const { definition } = await endpointWith({ cacheEnabled: true, cacheDurationSeconds: 60 });
      const body = { text: `cached-${sequence}` };
      const miss = await service.run(apiCall(definition, body));
      expect(miss).toMatchObject({ status: 'success', cache: 'MISS' });
      expect(miss.attempts).toHaveLength(1);

      const hitCall = apiCall(definition, body);
      const hit = await service.run(hitCall);
      expect(hit).toMatchObject({ status: 'success', cache: 'HIT', attempts: [] });
      expect(hit).toMatchObject({ renderedPrompt: miss.renderedPrompt, rawResponse: miss.rawResponse });
      expect((hit as { body: unknown }).body).toEqual((miss as { body: unknown }).body);
      expect(client.calls).toHaveLength(1);
      expect(await logRowOf(hitCall)).toMatchObject({ cached: true, status: 'success' });

      const bypass = await service.run(apiCall(definition, body, { cache: { bypass: true } }));
      expect(bypass).toMatchObject({ status: 'success', cache: 'BYPASS' });
      expect(client.calls).toHaveLength(2);
    });

    it('an endpoint without caching answers BYPASS and stores nothing', async () => {
      const { definition } = await endpointWith();
      await service.run(apiCall(definition, { text: 'same' }));
      const again = await service.run(apiCall(definition, { text: 'same' }));
      expect(again).toMatchObject({ status: 'success', cache: 'BYPASS' });
      expect(client.calls).toHaveLength(2);
    });

    it("a fallback model's answer is not stored", async () => {
      const { definition } = await endpointWith(
        { cacheEnabled: true, cacheDurationSeconds: 60 },
        { fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }] },
      );
      client.answer('gpt-4o-mini', { fail: new ProviderError('overloaded', 503, null) });
      const body = { text: `fallback-${sequence}` };
      expect(await service.run(apiCall(definition, body))).toMatchObject({ status: 'success', cache: 'MISS' });
      expect(await service.run(apiCall(definition, body))).toMatchObject({ status: 'success', cache: 'MISS' });
    });
  });

  describe('render', () => {
    it('a prompt rendered past its bound fails with the prompt known and no model called', async () => {
      const { definition, promptId } = await endpointWith();
      const call = apiCall(definition, { text: 'x'.repeat(MAX_RENDERED_BYTES) });
      const outcome = await service.run(call);
      expect(outcome).toMatchObject({ status: 'error', renderedPrompt: null, attempts: [] });
      expect(outcome.prompt?.id).toBe(promptId);
      expect((outcome as { error: unknown }).error).toMatchObject({ code: 'prompt_error' });
      expect(client.calls).toHaveLength(0);
    });
  });

  describe('attempts', () => {
    it('a provider failure fails over to the fallback model; every attempt is recorded and the slot given back', async () => {
      const { definition } = await endpointWith({}, { fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }] });
      client.answer('gpt-4o-mini', { fail: new ProviderError('overloaded', 503, null) });
      client.answer('claude-sonnet-4-5', { text: 'From the fallback' });
      const call = apiCall(definition, { text: 'x' });
      const outcome = await service.run(call);
      expect(outcome).toMatchObject({ status: 'success', body: 'From the fallback' });
      expect(
        outcome.attempts.map(({ llmModel, outcome: result, httpStatus }) => [llmModel, result, httpStatus]),
      ).toEqual([
        ['gpt-4o-mini', 'error', 503],
        ['claude-sonnet-4-5', 'success', null],
      ]);
      expect(client.calls.map((request) => request.model)).toEqual(['gpt-4o-mini', 'claude-sonnet-4-5']);
      expect(providerCalls.inFlight(principal)).toEqual({ tenant: 0, key: 0 });
      const row = await logRowOf(call);
      expect(row).toMatchObject({ llmModel: 'claude-sonnet-4-5', status: 'success' });
    });

    it('the last failure is the outcome, with the raw answer of a model that answered off the output fields', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, {
        inputs: [{ name: 'text', dataType: 'string' }],
        outputs: [{ name: 'label', dataType: 'string' }],
      });
      await createPrompt(t, tenant.admin, endpoint.id, { template: '{{ inputs.text }}', llmModel: 'gpt-4o-mini' });
      const definition = await t.app.get(EndpointsService).getDefinition(tenant.id, endpoint.id);
      client.answer('gpt-4o-mini', { text: '{"other":1}', object: { other: 1 } });
      const outcome = await service.run(apiCall(definition, { text: 'x' }));
      expect(outcome).toMatchObject({ status: 'error', rawResponse: '{"other":1}', parsedOutput: null });
      expect(outcome.attempts.map((attempt) => attempt.outcome)).toEqual(['error']);
      expect(providerCalls.inFlight(principal)).toEqual({ tenant: 0, key: 0 });
    });

    it('a caller that leaves aborts the call in progress and is logged as client_closed, without a further attempt', async () => {
      const { definition } = await endpointWith({}, { fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }] });
      client.answer('gpt-4o-mini', { hang: true });
      const departure = new ClientDeparture();
      const call = apiCall(definition, { text: 'x' }, { departure });
      const called = client.nextCall();
      const running = service.run(call);
      await called;
      departure.left();
      const outcome = await running;
      expect(outcome).toMatchObject({ status: 'error' });
      expect((outcome as { error: unknown }).error).toMatchObject({ code: 'client_closed' });
      expect(outcome.attempts).toHaveLength(1);
      expect(client.calls).toHaveLength(1);
      expect(providerCalls.inFlight(principal)).toEqual({ tenant: 0, key: 0 });
      expect(await logRowOf(call)).toMatchObject({ errorCode: 'client_closed' });
    });
  });

  describe('the observer of a streamed call', () => {
    /** Records what it is told, in order, and streams each attempt's answer piece by piece. */
    class RecordingObserver implements ExecutionObserver {
      readonly streams = true;
      readonly events: string[] = [];
      private pieces = 0;

      executionStarted(): void {
        this.events.push('started');
      }
      selected(prompt: ObservedPrompt, cache: CacheStatus | null): void {
        this.events.push(`selected ${prompt.slug} ${cache}`);
      }
      cacheHit(llmModel: string): void {
        this.events.push(`cacheHit ${llmModel}`);
      }
      async text(client: LlmClient, request: TextRequest, llmModel: string) {
        this.events.push(`text ${llmModel}`);
        return client.streamText(request, () => {
          this.pieces++;
          this.events.push('piece');
        });
      }
      mayFailOver(): boolean {
        this.events.push('mayFailOver?');
        return this.pieces === 0;
      }
      logged() {
        this.events.push('logged');
        return { ttftMs: 1 };
      }
    }

    async function streamed(definition: ApiCall['definition'], body: unknown): Promise<[string[], ExecutionOutcome]> {
      const observer = new RecordingObserver();
      const call = apiCall(definition, body, { observer });
      const outcome = await service.run(call);
      const row = await logRowOf(call);
      expect(row).toMatchObject({ streamed: true, ttftMs: 1 });
      return [observer.events, outcome];
    }

    it('is told of the start, the selection, each attempt and its pieces, then asked for the log row', async () => {
      const { definition, slug } = await endpointWith(
        { cacheEnabled: true, cacheDurationSeconds: 60 },
        { fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }] },
      );
      client.answer('gpt-4o-mini', { fail: new ProviderError('overloaded', 503, null) });
      client.answer('claude-sonnet-4-5', { text: 'ab', pieces: ['a', 'b'] });
      const [events, outcome] = await streamed(definition, { text: 'stream' });
      expect(outcome).toMatchObject({ status: 'success', body: 'ab' });
      expect(events).toEqual([
        'started',
        `selected ${slug} MISS`,
        'text gpt-4o-mini',
        'mayFailOver?',
        'text claude-sonnet-4-5',
        'piece',
        'piece',
        'logged',
      ]);
    });

    it('a cache hit is told as such, with no model call', async () => {
      const { definition, slug } = await endpointWith({ cacheEnabled: true, cacheDurationSeconds: 60 });
      const body = { text: `hit-${sequence}` };
      await service.run(apiCall(definition, body));
      const [events, outcome] = await streamed(definition, body);
      expect(outcome).toMatchObject({ status: 'success', cache: 'HIT' });
      expect(events).toEqual(['started', `selected ${slug} MISS`, 'cacheHit gpt-4o-mini', 'logged']);
    });

    it('an image endpoint cannot stream: refused in the validate stage, before a prompt is selected', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, {
        inputs: [{ name: 'text', dataType: 'string' }],
        outputs: [{ name: 'picture', dataType: 'image' }],
      });
      const definition = await t.app.get(EndpointsService).getDefinition(tenant.id, endpoint.id);
      const observer = new RecordingObserver();
      const outcome = await service.run(apiCall(definition, { text: 'x' }, { observer }));
      expect((outcome as { error: unknown }).error).toMatchObject({ code: 'validation_error' });
      expect(observer.events).toEqual(['started', 'logged']);
    });
  });
});
