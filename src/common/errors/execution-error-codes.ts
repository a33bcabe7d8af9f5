import type { AppError, AppErrorCode } from './app-error';

/** What an execution error means to its caller, and the status it is answered with. */
interface ExecutionErrorMeaning {
  status: number;
  /** The error code that gives this status, when the code is a reason of it (`prompt_not_found` is a `not_found`). */
  of: AppErrorCode;
  when: string;
}

/**
 * Every `error` code the execution API answers, in the order of their statuses: the tenant OpenAPI document and the
 * API documentation list these (a test checks the documentation's table against them).
 */
const EXECUTION_ERRORS = {
  validation_error: {
    status: 400,
    of: 'validation_error',
    when: 'the body does not match the input fields (`field` names the first one at fault)',
  },
  unauthorized: {
    status: 401,
    of: 'unauthorized',
    when: 'no `x-api-key`, an unknown or revoked key, or a key of another tenant',
  },
  forbidden: { status: 403, of: 'forbidden', when: 'the key may not call this endpoint' },
  not_found: { status: 404, of: 'not_found', when: 'no endpoint at this path' },
  prompt_not_found: { status: 404, of: 'not_found', when: '`?prompt=` names no prompt of the endpoint' },
  prompt_not_live: { status: 409, of: 'conflict', when: 'the selected prompt is not Live' },
  no_default_prompt: { status: 409, of: 'conflict', when: 'the endpoint has no default' },
  payload_too_large: { status: 413, of: 'payload_too_large', when: 'the body is larger than the service accepts' },
  prompt_error: { status: 422, of: 'prompt_error', when: 'the selected prompt cannot run (its template or settings)' },
  rate_limit_exceeded: {
    status: 429,
    of: 'rate_limit_exceeded',
    when: "a window of the key's rate limits is full, or the key or its tenant has as many model calls in flight as it may",
  },
  budget_exceeded: {
    status: 429,
    of: 'budget_exceeded',
    when: "a spend budget of the key, the endpoint, the tenant or one of the request's tags has less left this period than the call's worst-case cost",
  },
  upstream_error: {
    status: 502,
    of: 'upstream_error',
    when: 'the model provider failed or answered something unusable',
  },
  service_unavailable: {
    status: 503,
    of: 'service_unavailable',
    when: 'the service cannot reach its database',
  },
  overloaded: {
    status: 503,
    of: 'overloaded',
    when: 'the queue of template renders is full and this tenant holds most of it',
  },
  timeout: { status: 504, of: 'timeout', when: "no answer within the endpoint's timeout" },
} as const satisfies Record<string, ExecutionErrorMeaning>;

export type ExecutionErrorCode = keyof typeof EXECUTION_ERRORS;

/** The execution API's public error codes. */
export const EXECUTION_ERROR_CODES = Object.keys(EXECUTION_ERRORS) as ExecutionErrorCode[];

export function executionErrorMeaning(code: ExecutionErrorCode): ExecutionErrorMeaning {
  return EXECUTION_ERRORS[code];
}

/** Codes an execution body never carries but other surfaces' bodies do (MCP tool errors, test runs). */
type OtherSurfaceCode = 'conflict' | 'prompt_archived' | 'client_closed';

/**
 * The `error` code a failure is answered with: its reason when it has one (`prompt_not_live` is a `conflict`), else its
 * code. A switch over every code, so a new code does not compile until it is placed in the public list or outside it.
 */
export function publicCodeOf(error: AppError): ExecutionErrorCode | OtherSurfaceCode {
  switch (error.code) {
    case 'not_found':
    case 'conflict':
      return error.reason ?? error.code;
    case 'validation_error':
    case 'unauthorized':
    case 'forbidden':
    case 'payload_too_large':
    case 'rate_limit_exceeded':
    case 'timeout':
    case 'upstream_error':
    case 'prompt_error':
    case 'service_unavailable':
    case 'overloaded':
    case 'budget_exceeded':
    case 'client_closed':
      return error.code;
    default:
      return unplaced(error.code);
  }
}

function unplaced(code: never): never {
  throw new Error(`The error code ${String(code)} has no public code`);
}
