import { HttpException } from '@nestjs/common';
import {
  AppError,
  ConflictError,
  RateLimitError,
  RetryLaterError,
  statusOf,
  ValidationError,
} from '../errors/app-error';
import { fromDatabaseError } from '../errors/database-errors';
import { publicCodeOf } from '../errors/execution-error-codes';
import { withoutNetworkDetails } from '../errors/network-details';

export interface Failure {
  status: number;
  /** Envelope messages. */
  messages: string[];
  /** Execution body `error` value. */
  error: string;
  message: string;
  field?: string | null;
  headers: Record<string, string>;
  extra: Record<string, unknown>;
  /** Unexpected errors are logged with their stack; client errors are not. */
  unexpected?: unknown;
  /** What actually failed behind an expected server-side failure (an unreachable provider): logged, never answered. */
  cause?: unknown;
}

const HTTP_ERROR_CODES: Record<number, string> = {
  400: 'validation_error',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  417: 'expectation_failed',
  429: 'rate_limit_exceeded',
  431: 'header_fields_too_large',
};

/** Turns anything thrown into one surface-independent description; each filter renders it its own way. */
export function describeFailure(thrown: unknown): Failure {
  const error = thrown instanceof AppError ? thrown : (fromDatabaseError(thrown) ?? thrown);
  if (error instanceof AppError) {
    const failure: Failure = {
      status: statusOf(error),
      messages: error instanceof ValidationError || error instanceof ConflictError ? error.messages : [error.message],
      error: publicCodeOf(error),
      message: error.message,
      headers: {},
      extra: {},
    };
    if (error instanceof ValidationError) failure.field = error.field;
    if (failure.status >= 500 && error.cause !== undefined) failure.cause = error.cause;
    if (error instanceof RetryLaterError) {
      const seconds = error.retryAfterSeconds;
      failure.extra.retry_after = seconds;
      // A rate-limit refusal has its Retry-After written beside its X-RateLimit-* headers, by the rate limiter.
      if (!(error instanceof RateLimitError)) failure.headers['Retry-After'] = String(seconds);
    }
    return failure;
  }
  const status = httpStatusOf(error);
  if (status !== undefined && status < 500) {
    const message = httpMessageOf(error, status);
    const failure: Failure = {
      status,
      messages: [message],
      error: HTTP_ERROR_CODES[status] ?? 'error',
      message,
      headers: {},
      extra: {},
    };
    if (status === 400) failure.field = null;
    return failure;
  }
  return {
    status: 500,
    messages: ['Internal server error'],
    error: 'internal_error',
    message: 'Internal server error',
    headers: {},
    extra: {},
    unexpected: error,
  };
}

/** Nest's HttpExceptions, and body-parser errors (Express and Fastify both set `status`/`statusCode`). */
function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof HttpException) return error.getStatus();
  const candidate = error as { status?: unknown; statusCode?: unknown } | null;
  const status = candidate?.statusCode ?? candidate?.status;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : undefined;
}

function httpMessageOf(error: unknown, status: number): string {
  if (status === 413) return 'Request body is too large';
  // Express wraps body-parser failures in a BadRequestException whose cause is the parser's error; Fastify's content
  // type parser throws its own coded error.
  const cause = (error as { cause?: unknown }).cause ?? error;
  const { type, code } = cause as { type?: string; code?: string };
  const isMalformedJson =
    type === 'entity.parse.failed' || code === 'FST_ERR_CTP_INVALID_JSON_BODY' || cause instanceof SyntaxError;
  if (status === 400 && isMalformedJson) {
    return 'Request body is not valid JSON';
  }
  if (error instanceof HttpException) {
    const response = error.getResponse();
    if (typeof response === 'object' && response && 'message' in response) {
      const message = response.message;
      return withoutNetworkDetails(Array.isArray(message) ? message.join('; ') : String(message));
    }
    return withoutNetworkDetails(error.message);
  }
  return withoutNetworkDetails((error as Error).message ?? 'Request failed');
}
