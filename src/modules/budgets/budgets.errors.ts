import { ConflictError, type ErrorFactories, NotFoundError, ValidationError } from '../../common/errors/app-error';

/** The most budgets a tenant may have. */
export const MAX_BUDGETS_PER_TENANT = 100;

/** What the budgets module refuses; `BudgetErrorCode` names each refusal. */
export const BudgetErrors = {
  budgetNotFound: (id: string) => new NotFoundError(`Budget ${id} not found`),
  scopeTaken: (period: string) =>
    new ConflictError(`This scope already has a ${period === 'day' ? 'daily' : 'monthly'} budget: change that one`),
  tooMany: () => new ConflictError(`A tenant may have at most ${MAX_BUDGETS_PER_TENANT} budgets: delete one first`),
  scopeInvalid: (problems: string[]) => new ValidationError(problems, 'scope'),
} satisfies ErrorFactories;

export type BudgetErrorCode = keyof typeof BudgetErrors;
