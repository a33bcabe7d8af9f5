import { ConflictError, type ErrorFactories, NotFoundError, ValidationError } from '../../common/errors/app-error';

/** What the scores module refuses; `ScoreErrorCode` names each refusal. */
export const ScoreErrors = {
  configNotFound: (id: string) => new NotFoundError(`Score config ${id} not found`),
  tooManyConfigs: (limit: number) =>
    new ConflictError(`A tenant has at most ${limit} score configs: delete one before creating another`),
  configInUse: (name: string, change: string) =>
    new ConflictError(`Score config '${name}' is used by recorded scores, so ${change}`),
  undeclaredName: (name: string) => new ValidationError(`name: no score config is named '${name}'`, 'name'),
  badValue: (message: string) => new ValidationError(message, 'value'),
  badComment: (message: string) => new ValidationError(message, 'comment'),
} satisfies ErrorFactories;

export type ScoreErrorCode = keyof typeof ScoreErrors;
