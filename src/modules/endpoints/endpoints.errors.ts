import { ConflictError, type ErrorFactories, NotFoundError } from '../../common/errors/app-error';

/** What the endpoints module refuses; `EndpointErrorCode` names each refusal. */
export const EndpointErrors = {
  endpointNotFound: (id: string) => new NotFoundError(`Endpoint ${id} not found`),
  endpointNotDeleted: (id: string) => new ConflictError(`Endpoint ${id} is not deleted`),
  pathTaken: (path: string) => new ConflictError(`path ${path} is already used by another endpoint`),
  splitPromptNotLive: (index: number, name: string, status: string) =>
    new ConflictError(
      `trafficSplit.variants.${index}.promptId: prompt '${name}' is ${status}: only Live prompts can be in a traffic split`,
    ),
  fieldNameTaken: (name: string) => new ConflictError(`A field named '${name}' already exists on this endpoint`),
  fieldNotFound: (kind: string, id: string) => new NotFoundError(`${kind} field ${id} not found`),
} satisfies ErrorFactories;

export type EndpointErrorCode = keyof typeof EndpointErrors;
