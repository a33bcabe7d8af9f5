import type { Principal } from '../../common/auth/principal';
import type { Tags } from '../../common/tags/tags';
import type { EndpointDefinition } from '../endpoints/endpoint-definition';
import type { LlmClient, TextRequest, TextResult } from '../llm/llm-client';
import type { ExecutionSource } from '../logs/new-execution-log';
import type { ExecutablePrompt } from '../prompts/executable-prompt';
import type { UnsavedPrompt } from '../prompts/prompts.service';
import type { CacheStatus } from './execution-outcome';
import type { ClientDeparture } from './client-departure';

/** What every execution carries, whoever asked for it. */
interface CallBase {
  principal: Principal;
  definition: EndpointDefinition;
  requestId: string;
  body: unknown;
  /** The caller's tags (checked at the edge); its key's default tags are added under them when it is logged. */
  tags: Tags;
  /** Told of the execution's progress as it happens (a streamed answer); nothing is told by default. */
  observer?: ExecutionObserver;
}

/**
 * Api and MCP: the `?prompt=` name or slug (absent: the traffic split's variant, or the default), and the request's
 * headers a split may stick by.
 */
export interface PromptChoice {
  selector?: string;
  header?: (name: string) => string | undefined;
}

/** `POST /api/v1/<path>`: the response cache takes part, and the caller may leave before its answer. */
export interface ApiCall extends CallBase {
  kind: 'api';
  prompt: PromptChoice;
  /** `bypass` (x-cache-bypass: true) skips the cache lookup; the fresh answer is still stored. */
  cache: { bypass: boolean };
  /**
   * The caller going away, which aborts the provider call in progress and the attempts still planned (the call is
   * then logged as `client_closed`). Plain and streamed calls alike.
   */
  departure?: ClientDeparture;
}

/** MCP's `run_endpoint`: selected as an Api call is, without the cache. */
export interface McpCall extends CallBase {
  kind: 'mcp';
  prompt: PromptChoice;
}

/**
 * The dashboard's test page, without the cache: the prompt it names (Draft or Live, at any of its versions), or the unsaved prompt it gives
 * (checked as a create would check it).
 */
export interface TestRunCall extends CallBase {
  kind: 'testRun';
  /** A saved prompt at `version` (default: its current one), or unsaved text. */
  prompt: { promptId: string; version?: number } | { unsaved: UnsavedPrompt };
}

/**
 * One item of an evaluation run: the prompt version the run names (pinned, any status), without the response cache and
 * without the key's rate limits or provider-call slots (the run bounds its own calls); spend budgets apply as to any
 * call. Logged with source Eval; the run's tag (`eval_run=<id>`) comes in `tags`.
 */
export interface EvalCall extends CallBase {
  kind: 'eval';
  prompt: ExecutablePrompt;
}

/** One execution, by who asked for it: the kind decides the prompt selection, the cache and the log row's source. */
export type ExecutionCall = ApiCall | McpCall | TestRunCall | EvalCall;

const SOURCES: Record<ExecutionCall['kind'], ExecutionSource> = {
  api: 'Api',
  mcp: 'Internal',
  testRun: 'TestPage',
  eval: 'Eval',
};

/** The log row's `source` of a call. */
export function sourceOf(call: ExecutionCall): ExecutionSource {
  return SOURCES[call.kind];
}

/** The prompt version an observer is told of. */
export interface ObservedPrompt {
  id: string;
  version: number;
  slug: string;
}

/**
 * What an execution tells whoever follows it as it runs (the event stream of a streamed answer), in this order:
 * `executionStarted`; `selected` once the prompt and the cache status are known; then either `cacheHit`, or each attempt's
 * text call through `text`. The execution asks it too: whether an attempt may still fail over (`mayFailOver`), and
 * what its log row records of it (`logged`). Image calls are not observed (an image endpoint cannot stream).
 */
export interface ExecutionObserver {
  /** Whether the answer is passed on as it comes: an attempt that is answering then keeps the rest of the timeout. */
  readonly streams: boolean;
  /** The execution started at `startedMs` (a performance.now() reading). */
  executionStarted(startedMs: number): void;
  /** The prompt version that answers, and how the response cache takes part. */
  selected(prompt: ObservedPrompt, cache: CacheStatus | null): void;
  /** The cache answered: `text` is the model's raw text, `output` the body answered. */
  cacheHit(llmModel: string, text: string, output: unknown): void;
  /**
   * One attempt's text call of `llmModel`: the plain call, or its stream passed on. With `firstPieceWithin`, an attempt
   * that has nothing to pass on in that time fails with its message (a timeout, which fails over).
   */
  text(
    client: LlmClient,
    request: TextRequest,
    llmModel: string,
    firstPieceWithin: { ms: number; message: string } | undefined,
  ): Promise<TextResult>;
  /** Whether a failed attempt may still be followed by another (not once part of an answer was passed on). */
  mayFailOver(): boolean;
  /** What the log row records of the observed answer: for a stream, its time to the first piece. */
  logged(): { ttftMs: number | null } | undefined;
}

/** The observer of an execution nobody follows: the plain call, logged as such. */
export const NO_OBSERVER: ExecutionObserver = Object.freeze({
  streams: false,
  executionStarted: () => undefined,
  selected: () => undefined,
  cacheHit: () => undefined,
  text: (client: LlmClient, request: TextRequest) => client.generateText(request),
  mayFailOver: () => true,
  logged: () => undefined,
});
