import { ConflictError, type ErrorFactories, NotFoundError, ValidationError } from '../../common/errors/app-error';

/** What the datasets module refuses; `DatasetErrorCode` names each refusal. */
export const DatasetErrors = {
  datasetNotFound: (id: string) => new NotFoundError(`Dataset ${id} not found`),
  itemNotFound: (id: string) => new NotFoundError(`Dataset item ${id} not found`),
  nameTaken: (name: string) => new ConflictError(`A dataset named '${name}' already exists on this endpoint`),
  tooManyDatasets: (limit: number) =>
    new ConflictError(`An endpoint has at most ${limit} datasets: delete one before creating another`),
  tooManyItems: (message: string) => new ConflictError(message),
  badChecks: (messages: string[], field: string) => new ValidationError(messages, field),
  badItem: (field: string, message: string) => new ValidationError(`${field}: ${message}`, field),
  itemTooLarge: (field: string, bytes: number, limit: number) =>
    new ValidationError(`${field} is ${bytes} bytes as JSON; an item is at most ${limit} bytes (64 KiB)`, field),
  unstorableCharacter: (field: string) =>
    new ValidationError(
      `${field} holds a NUL character (\\u0000) or half of a surrogate pair, which cannot be stored`,
      field,
    ),
  logNotFound: (field: string, id: string) =>
    new NotFoundError(`${field}: no execution log ${id} in the tenant (it may be past the log retention)`),
  logNotCopyable: (field: string, reason: string) => new ValidationError(`${field}: ${reason}`, field),
} satisfies ErrorFactories;

export type DatasetErrorCode = keyof typeof DatasetErrors;
