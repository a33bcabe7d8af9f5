import { Inject, Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

/** The surfaces requests are counted under (open routes such as /health and /metrics are not counted). */
export type MetricsSurface = 'execution' | 'admin' | 'mcp';
export type CacheLookupResult = 'hit' | 'miss' | 'bypass';
/** What a provider call was: a chat completion, or an image generation. */
export type GenAiOperation = 'chat' | 'generate_content';

/** The OpenTelemetry GenAI semantic conventions' explicit bucket boundaries. */
export const OPERATION_DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
export const TOKEN_USAGE_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];
/** The service's own time on a request: sub-millisecond for a cache hit, tens of milliseconds with a render. */
export const OVERHEAD_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** What the log write queue reports (its state). */
export interface LogQueueGauge {
  queued: number;
  dropped: number;
}

/** What the budget metrics read, by scope type (no tenant or budget labels: their number is unbounded). */
export interface BudgetGauges {
  refusals: Record<string, number>;
  spent: Record<string, number>;
  reserved: Record<string, number>;
}

export interface TokenCounts {
  inputTokens: number | null;
  outputTokens: number | null;
}

/** The series of one provider model: bound once, then only incremented. */
export interface ProviderCallSeries {
  /** The call answered: its duration, and the tokens it reported (null when the provider reported none). */
  succeeded(seconds: number, inputTokens: number | null, outputTokens: number | null): void;
  /** The call failed with `errorType` (a bounded code: `timeout`, `upstream_error`, …), with the tokens it reported. */
  failed(seconds: number, errorType: string, usage: TokenCounts | null): void;
}

type CounterChild = ReturnType<Counter['labels']>;
type HistogramChild = ReturnType<Histogram['labels']>;

const SURFACES: MetricsSurface[] = ['execution', 'admin', 'mcp'];
const SURFACE_INDEX: Record<MetricsSurface, number> = { execution: 0, admin: 1, mcp: 2 };
/** HTTP status codes are three digits (anything else is counted as 0). */
const STATUS_CODES = 600;
const CACHE_RESULTS: CacheLookupResult[] = ['hit', 'miss', 'bypass'];
const CACHE_INDEX: Record<CacheLookupResult, number> = { hit: 0, miss: 1, bypass: 2 };
/** Execution outcomes are `success` and the error codes: a few dozen at most; any beyond are counted as `_OTHER`. */
const MAX_OUTCOMES = 64;

/**
 * Counts kept as plain numbers where they happen (an array slot per label set: no label lookup, no string built per
 * request) and added to their prom-client counter when it is scraped.
 */
class Tally {
  readonly counts: Float64Array;
  private readonly reported: Float64Array;

  constructor(
    size: number,
    private readonly labelsAt: (index: number) => Record<string, string>,
  ) {
    this.counts = new Float64Array(size);
    this.reported = new Float64Array(size);
  }

  foldInto(counter: Counter<string>): void {
    const { counts, reported } = this;
    for (let index = 0; index < counts.length; index++) {
      const delta = counts[index] - reported[index];
      if (delta === 0) continue;
      counter.inc(this.labelsAt(index), delta);
      reported[index] = counts[index];
    }
  }
}

/**
 * The service's Prometheus metrics, in a registry of its own (one per application instance). Every label value comes
 * from a bounded set (surfaces, status codes, outcomes, catalog models, providers): no key, tenant, request or path.
 * The per-request counts are array increments folded into their counters at scrape time, and histogram children are
 * bound once per label set.
 */
@Injectable()
export class Metrics {
  readonly enabled: boolean;
  readonly registry = new Registry();
  private readonly httpTally = new Tally(SURFACES.length * STATUS_CODES, (index) => ({
    surface: SURFACES[Math.floor(index / STATUS_CODES)],
    status: String(index % STATUS_CODES),
  }));
  private readonly outcomes: string[] = [];
  private readonly outcomeIndex = new Map<string, number>();
  private readonly executionTally = new Tally(MAX_OUTCOMES * 2, (index) => ({
    outcome: this.outcomes[index >> 1],
    cached: index & 1 ? 'true' : 'false',
  }));
  private readonly cacheTally = new Tally(CACHE_RESULTS.length, (index) => ({ result: CACHE_RESULTS[index] }));
  private readonly rateLimitedCounter = new Counter({
    name: 'promptgate_rate_limited_total',
    help: 'Requests refused by a rate limit (429), by surface',
    labelNames: ['surface'] as const,
    registers: [this.registry],
  });
  private readonly rateLimitedChildren: Record<MetricsSurface, CounterChild>;
  private readonly overhead = new Histogram({
    name: 'promptgate_overhead_seconds',
    help: "Time the service adds to an execution request: the request's time minus the time spent in provider calls",
    buckets: OVERHEAD_BUCKETS,
    registers: [this.registry],
  });
  private readonly operationDuration = new Histogram({
    name: 'gen_ai_client_operation_duration_seconds',
    help: 'Duration of provider calls (one per attempt)',
    labelNames: ['gen_ai_operation_name', 'gen_ai_provider_name', 'gen_ai_request_model', 'error_type'] as const,
    buckets: OPERATION_DURATION_BUCKETS,
    registers: [this.registry],
  });
  private readonly tokenUsage = new Histogram({
    name: 'gen_ai_client_token_usage',
    help: 'Tokens a provider call reported, by token type (input or output)',
    labelNames: ['gen_ai_operation_name', 'gen_ai_provider_name', 'gen_ai_request_model', 'gen_ai_token_type'] as const,
    buckets: TOKEN_USAGE_BUCKETS,
    registers: [this.registry],
  });

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'metricsEnabled'>) {
    this.enabled = config.metricsEnabled;
    const tallied = (name: string, help: string, labelNames: string[], tally: Tally) =>
      new Counter({
        name,
        help,
        labelNames,
        registers: [this.registry],
        collect() {
          tally.foldInto(this);
        },
      });
    tallied(
      'promptgate_http_requests_total',
      'Requests answered on the execution API, the admin API and MCP, by surface and status code',
      ['surface', 'status'],
      this.httpTally,
    );
    tallied(
      'promptgate_executions_total',
      'Executions run (API, test runs and MCP), by outcome (success or the error code) and whether the cache answered',
      ['outcome', 'cached'],
      this.executionTally,
    );
    tallied(
      'promptgate_cache_lookups_total',
      'Response cache lookups of API executions: hit, miss, or bypass (x-cache-bypass, or caching off)',
      ['result'],
      this.cacheTally,
    );
    this.rateLimitedChildren = {
      execution: this.rateLimitedCounter.labels('execution'),
      admin: this.rateLimitedCounter.labels('admin'),
      mcp: this.rateLimitedCounter.labels('mcp'),
    };
    if (this.enabled) collectDefaultMetrics({ register: this.registry });
  }

  /** A request of a keyed surface was answered with `status`. */
  requestAnswered(surface: MetricsSurface, status: number): void {
    const code = status >= 100 && status < STATUS_CODES ? status : 0;
    this.httpTally.counts[SURFACE_INDEX[surface] * STATUS_CODES + code]++;
  }

  /** An execution request's time without its provider calls. */
  overheadObserved(seconds: number): void {
    this.overhead.observe(seconds < 0 ? 0 : seconds);
  }

  /** An execution ended: `outcome` is `success` or its error code (a bounded set). */
  executionFinished(outcome: string, cached: boolean): void {
    let index = this.outcomeIndex.get(outcome);
    if (index === undefined) {
      const known = this.outcomes.length < MAX_OUTCOMES - 1 ? outcome : '_OTHER';
      index = this.outcomeIndex.get(known);
      if (index === undefined) {
        index = this.outcomes.push(known) - 1;
        this.outcomeIndex.set(known, index);
      }
      if (known === outcome) this.outcomeIndex.set(outcome, index);
    }
    this.executionTally.counts[index * 2 + (cached ? 1 : 0)]++;
  }

  rateLimited(surface: MetricsSurface): void {
    this.rateLimitedChildren[surface].inc();
  }

  cacheLookup(result: CacheLookupResult): void {
    this.cacheTally.counts[CACHE_INDEX[result]]++;
  }

  /** The series of one provider's model (the model comes from the catalog, a bounded set). */
  providerCallSeries(operation: GenAiOperation, provider: string, model: string): ProviderCallSeries {
    const duration = this.operationDuration;
    const succeeded = duration.labels({
      gen_ai_operation_name: operation,
      gen_ai_provider_name: provider,
      gen_ai_request_model: model,
    });
    const input = this.tokenUsage.labels(operation, provider, model, 'input');
    const output = this.tokenUsage.labels(operation, provider, model, 'output');
    const failures = new Map<string, HistogramChild>();
    const tokens = (inputTokens: number | null, outputTokens: number | null) => {
      if (inputTokens !== null) input.observe(inputTokens);
      if (outputTokens !== null) output.observe(outputTokens);
    };
    return {
      succeeded(seconds, inputTokens, outputTokens) {
        succeeded.observe(seconds);
        tokens(inputTokens, outputTokens);
      },
      failed(seconds, errorType, usage) {
        let child = failures.get(errorType);
        if (!child) {
          child = duration.labels(operation, provider, model, errorType);
          failures.set(errorType, child);
        }
        child.observe(seconds);
        if (usage) tokens(usage.inputTokens, usage.outputTokens);
      },
    };
  }

  /** The log write queue's depth and its drops, read at each scrape. */
  watchLogQueue(state: () => LogQueueGauge): void {
    new Gauge({
      name: 'promptgate_log_queue_depth',
      help: 'Execution log rows waiting to be written',
      registers: [this.registry],
      collect() {
        this.set(state().queued);
      },
    });
    let reported = 0;
    new Counter({
      name: 'promptgate_logs_dropped_total',
      help: 'Execution log rows dropped: the queue was full while the database was away, or left unwritten at shutdown',
      registers: [this.registry],
      collect() {
        const { dropped } = state();
        if (dropped > reported) this.inc(dropped - reported);
        reported = dropped;
      },
    });
  }

  /** Spend budgets: refusals, and the spent and reserved dollars of the budget periods in use, by scope type. */
  watchBudgets(state: () => BudgetGauges): void {
    const reported: Record<string, number> = {};
    new Counter({
      name: 'promptgate_budget_refusals_total',
      help: 'Attempts refused (429 budget_exceeded) because a spend budget would go over its limit, by scope type',
      labelNames: ['scope'],
      registers: [this.registry],
      collect() {
        for (const [scope, count] of Object.entries(state().refusals)) {
          const delta = count - (reported[scope] ?? 0);
          if (delta > 0 || reported[scope] === undefined) this.inc({ scope }, delta);
          reported[scope] = count;
        }
      },
    });
    for (const [name, field, help] of [
      [
        'promptgate_budget_spent_usd',
        'spent',
        'Dollars spent in the current period of the budgets in use, by scope type',
      ],
      [
        'promptgate_budget_reserved_usd',
        'reserved',
        'Dollars reserved by calls in flight against the budgets in use, by scope type',
      ],
    ] as const) {
      new Gauge({
        name,
        help,
        labelNames: ['scope'],
        registers: [this.registry],
        collect() {
          for (const [scope, value] of Object.entries(state()[field])) this.set({ scope }, value);
        },
      });
    }
  }

  /** The Prometheus text exposition of every metric. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
