import type { GateView, ItemView, RunView } from './eval-report';
import { type DatasetView, EvalRunFailure, type EvalRunSource } from './eval-run';

/** How many times a request refused with 429 or 503 is tried again, after the Retry-After it names. */
const RETRIES = 5;
/** The longest Retry-After waited for; a longer one fails the command. */
const MAX_RETRY_AFTER_SECONDS = 60;
/** How long one request may take. */
const REQUEST_TIMEOUT_MS = 30_000;

/** The admin API's envelope. */
interface Envelope<T> {
  succeeded: boolean;
  messages?: string[];
  data: T;
}

/**
 * `eval run` against a running service's admin API (`--base-url`, `--admin-key`), with the global fetch: the same
 * routes as a curl or a dashboard call, so it needs nothing but the service's address and an admin key.
 */
export class HttpEvalRunSource implements EvalRunSource {
  private readonly base: URL;

  constructor(
    baseUrl: string,
    private readonly adminKey: string,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  }

  async checkTenant(slug: string): Promise<void> {
    const session = await this.call<{ tenant: { slug: string } }>('GET', 'admin/v1/session');
    if (session.tenant.slug !== slug) {
      throw new EvalRunFailure(`The admin key is a key of tenant ${session.tenant.slug}, not of ${slug}`);
    }
  }

  dataset(datasetId: string): Promise<DatasetView> {
    return this.call('GET', `admin/v1/datasets/${datasetId}`);
  }

  async promotionGate(endpointId: string): Promise<GateView | null> {
    const endpoint = await this.call<{ promotionGate?: GateView | null }>('GET', `admin/v1/endpoints/${endpointId}`);
    return endpoint.promotionGate ?? null;
  }

  startRun(datasetId: string, body: object): Promise<RunView> {
    return this.call('POST', `admin/v1/datasets/${datasetId}/runs`, body);
  }

  run(runId: string): Promise<RunView> {
    return this.call('GET', `admin/v1/eval-runs/${runId}`);
  }

  items(runId: string): Promise<ItemView[]> {
    return this.call('GET', `admin/v1/eval-runs/${runId}/items`);
  }

  /** One admin API call's data; a refusal throws with its status and the API's messages. */
  private async call<T>(method: string, path: string, body?: object): Promise<T> {
    const url = new URL(path, this.base);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers: {
            'x-api-key': this.adminKey,
            accept: 'application/json',
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (error) {
        const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
        throw new EvalRunFailure(`${method} ${url.href} failed: ${cause}`);
      }
      const retryAfter = Number(response.headers.get('retry-after'));
      const retriable = response.status === 429 || response.status === 503;
      if (retriable && attempt < RETRIES && retryAfter >= 0 && retryAfter <= MAX_RETRY_AFTER_SECONDS) {
        await response.body?.cancel();
        await this.sleep(Math.max(retryAfter, 1) * 1000);
        continue;
      }
      const text = await response.text();
      let envelope: Envelope<T> | undefined;
      try {
        envelope = JSON.parse(text) as Envelope<T>;
      } catch {
        envelope = undefined;
      }
      if (response.ok && envelope?.succeeded) return envelope.data;
      const messages = envelope?.messages?.join('; ') || text.slice(0, 200) || response.statusText;
      throw new EvalRunFailure(`${method} ${url.pathname} answered ${response.status}: ${messages}`);
    }
  }
}
