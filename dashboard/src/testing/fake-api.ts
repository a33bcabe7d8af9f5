// The HTTP boundary of the dashboard's component specs: a stand-in for the generated OpenAPI client (`api`) that
// answers each call from the routes a spec gives it, records the calls, and fails on any call no route answers.
import type { api as realApi } from '../api/client';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A call the component made: the path template, its parameters and its body. */
export interface Call {
  method: Method;
  path: string;
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
}

/** What a route answers: `data` in the API's envelope, or a refusal with `status` and the envelope's `messages`. */
export type Answer = { data: unknown; status?: number } | { status: number; messages: string[] };

type Route = (call: Call) => Answer | Promise<Answer>;

export class FakeApi {
  readonly calls: Call[] = [];
  private readonly routes = new Map<string, Route>();

  /** The client's methods, in the shape the components call them. */
  readonly client = Object.fromEntries(
    (['GET', 'POST', 'PUT', 'DELETE'] as const).map((method) => [
      method,
      (path: string, init?: Omit<Call, 'method' | 'path'>) => this.handle(method, path, init),
    ]),
  ) as unknown as typeof realApi;

  /** Answers `method path` (a path template such as `/admin/v1/keys/{id}`) with `answer`, or with what `route` returns. */
  on(method: Method, path: string, answer: Answer | Route): this {
    this.routes.set(`${method} ${path}`, typeof answer === 'function' ? answer : () => answer);
    return this;
  }

  /** Forgets the calls and the routes: each test gives its own. */
  reset(): this {
    this.calls.length = 0;
    this.routes.clear();
    return this;
  }

  /** The calls made to `method path`. */
  callsTo(method: Method, path: string): Call[] {
    return this.calls.filter((call) => call.method === method && call.path === path);
  }

  /** Holds the answers of `method path` until `release()` is called: for what a component shows meanwhile. */
  hold(method: Method, path: string): { release: () => void } {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const route = this.routes.get(`${method} ${path}`);
    if (!route) throw new Error(`no route to hold: ${method} ${path}`);
    this.routes.set(`${method} ${path}`, async (call) => (await released, route(call)));
    return { release };
  }

  private async handle(method: Method, path: string, init?: Omit<Call, 'method' | 'path'>) {
    const call: Call = { method, path, params: init?.params, body: init?.body };
    this.calls.push(call);
    const route = this.routes.get(`${method} ${path}`);
    if (!route) throw new Error(`The component called ${method} ${path}, which the spec does not answer`);
    const answer = await route(call);
    const status = answer.status ?? 200;
    // The little of a fetch Response that the dashboard reads.
    const response = { ok: status < 400, status, headers: { get: () => null } };
    return 'messages' in answer
      ? { error: { succeeded: false, messages: answer.messages, data: null }, response }
      : { data: { succeeded: true, messages: [], data: answer.data }, response };
  }
}

let current: FakeApi | undefined;

/**
 * The module that stands for `api/client` in a component spec, the real one but for `api`:
 * `jest.mock('<path to>/api/client', () => jest.requireActual('<path to>/testing/fake-api').fakeClientModule())`.
 */
export function fakeClientModule(): object {
  current = new FakeApi();
  return { ...jest.requireActual<object>('../api/client'), api: current.client };
}

/** The fake behind the spec's mocked client. */
export function fakeApi(): FakeApi {
  if (!current) throw new Error('api/client is not mocked with fakeClientModule() in this spec');
  return current;
}
