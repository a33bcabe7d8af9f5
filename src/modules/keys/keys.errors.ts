import { type ErrorFactories, NotFoundError } from '../../common/errors/app-error';

/** What the API keys module refuses; `KeyErrorCode` names each refusal. */
export const KeyErrors = {
  keyNotFound: (id: string) => new NotFoundError(`API key ${id} not found`),
} satisfies ErrorFactories;

export type KeyErrorCode = keyof typeof KeyErrors;
