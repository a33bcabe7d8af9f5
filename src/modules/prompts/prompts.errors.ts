import { ConflictError, type ErrorFactories, NotFoundError } from '../../common/errors/app-error';

/** What the prompts module refuses; `PromptErrorCode` names each refusal. */
export const PromptErrors = {
  promptNotFound: (id: string) => new NotFoundError(`Prompt ${id} not found`, 'prompt_not_found'),
  nameTaken: (name: string) =>
    new ConflictError(`A prompt named '${name}' (or with the same slug) already exists on this endpoint`),
  /** An action the prompt's status (or its place on the endpoint) does not allow, with the lifecycle's reason. */
  transitionRefused: (reason: string) => new ConflictError(reason),
  splitVariantNotLive: () =>
    new ConflictError("A prompt of the endpoint's traffic split is not Live", 'prompt_not_live'),
  noPromptNamed: (selector: string) =>
    new NotFoundError(`No prompt named '${selector}' on this endpoint`, 'prompt_not_found'),
  selectedNotLive: (name: string, status: string) =>
    new ConflictError(`Prompt '${name}' is ${status}: only Live prompts can be executed`, 'prompt_not_live'),
  noDefaultPrompt: () =>
    new ConflictError('This endpoint has no default prompt: set one or pass ?prompt=', 'no_default_prompt'),
  defaultNotLive: (name: string) => new ConflictError(`The default prompt '${name}' is not Live`, 'prompt_not_live'),
  notOnEndpoint: (promptId: string, endpointId: string) =>
    new NotFoundError(`Prompt ${promptId} not found on endpoint ${endpointId}`, 'prompt_not_found'),
  /** The endpoint's promotion gate is not passed: a message per reason. */
  gateNotPassed: (problems: string[]) => new ConflictError(problems),
  archivedNotTestable: (name: string) =>
    new ConflictError(`Prompt '${name}' is Archived: unarchive it to test it`, 'prompt_archived'),
} satisfies ErrorFactories;

export type PromptErrorCode = keyof typeof PromptErrors;
