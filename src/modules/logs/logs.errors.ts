import { type ErrorFactories, NotFoundError, ValidationError } from '../../common/errors/app-error';

/** What the logs module refuses; `LogErrorCode` names each refusal. */
export const LogErrors = {
  logNotFound: (id: string) => new NotFoundError(`Execution log ${id} not found`),
  periodReversed: () => new ValidationError('from must be before to', 'from'),
} satisfies ErrorFactories;

export type LogErrorCode = keyof typeof LogErrors;
