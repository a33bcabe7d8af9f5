import { type ErrorFactories, NotFoundError, ValidationError } from '../../common/errors/app-error';

/** What the logs module refuses; `LogErrorCode` names each refusal. */
export const LogErrors = {
  logNotFound: (id: string) => new NotFoundError(`Execution log ${id} not found`),
  requestNotFound: (requestId: string) =>
    new NotFoundError(`No execution with request id '${requestId}' that this key may score`),
  periodReversed: () => new ValidationError('from must be before to', 'from'),
} satisfies ErrorFactories;

export type LogErrorCode = keyof typeof LogErrors;
