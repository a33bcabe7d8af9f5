import { describeFailure } from '../../common/http/error-mapping';
import type { AppLogger } from '../../common/logging/app-logger';

/** JSON-RPC error codes of the MCP surface. */
const RESOURCE_NOT_FOUND = -32002;
export const INVALID_PARAMS = -32602;
const SERVER_ERROR = -32001;
const INTERNAL_ERROR = -32603;

/**
 * An MCP request's failure as the SDK answers it: its `code` and `message` become the JSON-RPC error as they are
 * (the message is `<error code>: <message>`, as every MCP error of this service reads).
 */
export class McpFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * An error of an MCP tool call or resource read as its client sees it: the service's own errors by code and message,
 * as on the REST surfaces; anything else (a driver or library error) is logged with its stack and answered with a
 * generic line, so no SQL, driver text or address reaches the client. What caused an expected server-side failure
 * (an unreachable provider) is logged too.
 */
export function mcpFailureOf(thrown: unknown, logger: AppLogger, context: Record<string, unknown>): McpFailure {
  const failure = describeFailure(thrown);
  if (failure.unexpected !== undefined) {
    const error = failure.unexpected as Error;
    logger.write('error', error?.message ?? String(error), { ...context, stack: error?.stack });
    return new McpFailure(INTERNAL_ERROR, 'internal_error: the request failed; see the service logs');
  }
  if (failure.cause !== undefined) {
    const cause = failure.cause as Error;
    logger.write('warn', failure.message, { ...context, cause: cause?.message ?? String(cause) });
  }
  const code = failure.status === 404 ? RESOURCE_NOT_FOUND : failure.status === 400 ? INVALID_PARAMS : SERVER_ERROR;
  return new McpFailure(code, `${failure.error}: ${failure.messages.join('; ')}`);
}
