import { type ErrorFactories, NotFoundError } from '../../common/errors/app-error';

/** What the prompt versions module refuses; `VersionErrorCode` names each refusal. */
export const VersionErrors = {
  versionNotFound: (versionNumber: number, promptId: string) =>
    new NotFoundError(`Version ${versionNumber} of prompt ${promptId} not found`),
} satisfies ErrorFactories;

export type VersionErrorCode = keyof typeof VersionErrors;
