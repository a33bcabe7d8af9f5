import { ConflictError, type ErrorFactories, NotFoundError } from '../../common/errors/app-error';

/** What the tenants module refuses; `TenantErrorCode` names each refusal. */
export const TenantErrors = {
  slugTaken: (slug: string) => new ConflictError(`Tenant '${slug}' already exists`),
  slugNotFound: (slug: string) => new NotFoundError(`Tenant '${slug}' does not exist`),
  tenantNotFound: () => new NotFoundError('Tenant does not exist'),
} satisfies ErrorFactories;

export type TenantErrorCode = keyof typeof TenantErrors;
