import { type ErrorFactories, NotFoundError } from '../../common/errors/app-error';

/** What the MCP server refuses itself (its tools refuse with the errors of the modules they call). */
export const McpErrors = {
  resourceNotFound: (uri: string) => new NotFoundError(`Resource ${uri} not found`),
} satisfies ErrorFactories;

export type McpErrorCode = keyof typeof McpErrors;
