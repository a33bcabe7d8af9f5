import { type ErrorFactories, NotFoundError } from '../../common/errors/app-error';

/** What the execution API refuses itself (the public codes it answers are listed in common/errors). */
export const ExecutionErrors = {
  noEndpointAt: (path: string) => new NotFoundError(`No endpoint at ${path}`),
} satisfies ErrorFactories;

export type ExecutionModuleErrorCode = keyof typeof ExecutionErrors;
