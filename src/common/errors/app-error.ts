/** The error codes services throw; each surface's filter maps them to a status with an exhaustive switch. */
export type AppErrorCode =
  | 'validation_error'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limit_exceeded'
  | 'timeout'
  | 'upstream_error'
  | 'prompt_error'
  | 'service_unavailable'
  | 'overloaded'
  | 'budget_exceeded'
  | 'client_closed';

/** Reasons that narrow a code in execution bodies and MCP tool errors (`prompt_not_found` is a `not_found`). */
export type AppErrorReason = 'prompt_not_found' | 'prompt_not_live' | 'no_default_prompt' | 'prompt_archived';

export abstract class AppError extends Error {
  abstract readonly code: AppErrorCode;
  /** Machine-readable reason for execution bodies (`prompt_not_found`, …); defaults to the code. */
  readonly reason?: AppErrorReason;

  /** `options.cause` is what actually failed: written to the service log, never shown to the client. */
  constructor(message: string, reason?: AppErrorReason, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.reason = reason;
  }
}

export class ValidationError extends AppError {
  readonly code = 'validation_error';
  /** One message per problem, each naming its field. */
  readonly messages: string[];

  constructor(
    messages: string | string[],
    readonly field: string | null = null,
  ) {
    const list = Array.isArray(messages) ? messages : [messages];
    super(list.join('; '));
    this.messages = list;
  }
}

export class UnauthorizedError extends AppError {
  readonly code = 'unauthorized';
}

export class ForbiddenError extends AppError {
  readonly code = 'forbidden';
}

export class NotFoundError extends AppError {
  readonly code = 'not_found';
}

export class ConflictError extends AppError {
  readonly code = 'conflict';
  /** One message per reason the request conflicts: the error's own message unless several are given. */
  readonly messages: string[];

  constructor(messages: string | string[], reason?: AppErrorReason, options?: ErrorOptions) {
    const list = Array.isArray(messages) ? messages : [messages];
    super(list.join('; '), reason, options);
    this.messages = list;
  }
}

export class PayloadTooLargeError extends AppError {
  readonly code = 'payload_too_large';
}

/** A refusal the client may retry after `retryAfterSeconds` (answered with a Retry-After header). */
export abstract class RetryLaterError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export class RateLimitError extends RetryLaterError {
  readonly code = 'rate_limit_exceeded';
}

/**
 * Too many of the caller's calls are in flight at once (provider calls, or event streams of one key): a 429 like a
 * rate limit's, whose Retry-After is written with the answer (no X-RateLimit-* window describes it).
 */
export class ConcurrencyLimitError extends RetryLaterError {
  readonly code = 'rate_limit_exceeded';
}

/** Too many failed authentications from one client address: it may try again after `retryAfterSeconds`. */
export class AuthenticationThrottledError extends RetryLaterError {
  readonly code = 'rate_limit_exceeded';
}

export class UpstreamTimeoutError extends AppError {
  readonly code = 'timeout';
}

export class UpstreamError extends AppError {
  readonly code = 'upstream_error';
}

/** The selected prompt cannot run: its template fails or exceeds the render limits, or its settings are out of bounds. */
export class PromptError extends AppError {
  readonly code = 'prompt_error';
}

/** A dependency the request needs (the database) is down: the client may retry after `retryAfterSeconds`. */
export class ServiceUnavailableError extends RetryLaterError {
  readonly code = 'service_unavailable';
}

/** The service's shared capacity (the render queue) is full and this caller holds most of it: retry later. */
export class OverloadedError extends RetryLaterError {
  readonly code = 'overloaded';
}

/**
 * An attempt's worst-case cost would take a spend budget over its limit: the attempt does not start, and the client may
 * retry when the budget's period ends (`retryAfterSeconds`).
 */
export class BudgetExceededError extends RetryLaterError {
  readonly code = 'budget_exceeded';
}

/** The client left before its streamed answer was complete; its provider call was stopped. Only ever logged. */
export class ClientClosedError extends AppError {
  readonly code = 'client_closed';
}

export function statusOf(error: AppError): number {
  switch (error.code) {
    case 'validation_error':
      return 400;
    case 'unauthorized':
      return 401;
    case 'forbidden':
      return 403;
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'payload_too_large':
      return 413;
    case 'rate_limit_exceeded':
    case 'budget_exceeded':
      return 429;
    case 'prompt_error':
      return 422;
    case 'upstream_error':
      return 502;
    case 'service_unavailable':
    case 'overloaded':
      return 503;
    case 'timeout':
      return 504;
    // The status proxies log for a request its client closed: nobody receives it.
    case 'client_closed':
      return 499;
    default:
      return unmapped(error.code);
  }
}

/** Compiles only when every code has its case above: a new code must be given its status. */
function unmapped(code: never): never {
  throw new Error(`No status for the error code ${String(code)}`);
}

/**
 * A module's errors: one factory per refusal, named by its code, each building the AppError (and the message clients
 * and tests read) in one place. `keyof` the factories is the module's code union.
 */
export type ErrorFactories = Record<string, (...args: never[]) => AppError>;
