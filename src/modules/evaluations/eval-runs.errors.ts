import { ConflictError, type ErrorFactories, NotFoundError, ValidationError } from '../../common/errors/app-error';

/** What the evaluation runs refuse; `EvalRunErrorCode` names each refusal. */
export const EvalRunErrors = {
  runNotFound: (id: string) => new NotFoundError(`Evaluation run ${id} not found`),
  notOnEndpoint: (field: string, promptId: string) =>
    new ValidationError(`${field}: prompt ${promptId} is not a prompt of the dataset's endpoint`, field),
  archived: (field: string, name: string) =>
    new ConflictError(`${field}: prompt '${name}' is Archived: restore it before evaluating it`),
  noItems: () => new ConflictError('The dataset has no items to run'),
  baselineInvalid: (message: string) =>
    new ValidationError(`baseline${message.startsWith('.') ? '' : ' '}${message}`, 'baseline'),
  alreadyEnded: (status: string) =>
    new ConflictError(`The run is ${status}: only a queued or running run can be cancelled`),
} satisfies ErrorFactories;

export type EvalRunErrorCode = keyof typeof EvalRunErrors;
