import { tagKeyProblem, tagValueProblem } from '../../common/tags/tags';
import type { Tags } from '../../common/tags/tags';
import type { SpendScope } from '../logs/execution-log-reads.service';

/** What a budget covers: one key's calls, one endpoint's, the whole tenant's, or the calls that carry one tag. */
export type BudgetScopeType = 'key' | 'endpoint' | 'tenant' | 'tag';
export const BUDGET_SCOPE_TYPES: BudgetScopeType[] = ['key', 'endpoint', 'tenant', 'tag'];

/** A scope as the API writes it: the field of its type, and no other. */
export interface BudgetScope {
  type: BudgetScopeType;
  keyId?: string;
  endpointId?: string;
  tag?: string;
}

const FIELD_OF: Record<BudgetScopeType, 'keyId' | 'endpointId' | 'tag' | null> = {
  key: 'keyId',
  endpoint: 'endpointId',
  tenant: null,
  tag: 'tag',
};
const SCOPE_FIELDS = ['keyId', 'endpointId', 'tag'] as const;

/**
 * The scope's problems, each naming its field: a key scope needs `keyId`, an endpoint scope `endpointId`, a tag scope
 * `tag` (`key:value`, by the rules of request tags), a tenant scope none of them; no scope has another type's field.
 */
export function scopeProblems(scope: BudgetScope): string[] {
  const own = FIELD_OF[scope.type];
  const problems: string[] = [];
  for (const field of SCOPE_FIELDS) {
    const present = scope[field] !== undefined && scope[field] !== null;
    if (field === own && !present) problems.push(`scope.${field} is required for a ${scope.type} scope`);
    if (field !== own && present) problems.push(`scope.${field} is not allowed for a ${scope.type} scope`);
  }
  if (own === 'tag' && typeof scope.tag === 'string') {
    const tag = splitTag(scope.tag);
    const problem = tag ? (tagKeyProblem(tag.key) ?? tagValueProblem(tag.key, tag.value)) : 'must be key:value';
    if (problem) problems.push(`scope.tag: ${problem}`);
  }
  return problems;
}

/**
 * The stored reference of a scope: the id or tag it names, '' for the tenant. Ids are stored in lower case, as calls
 * name their key and endpoint, so a budget written with an id in capitals applies (and counts as the same scope).
 */
export function scopeRefOf(scope: BudgetScope): string {
  const field = FIELD_OF[scope.type];
  if (!field) return '';
  return field === 'tag' ? scope.tag! : scope[field]!.toLowerCase();
}

/** The scope as the API reads it back from its stored type and reference. */
export function scopeOf(type: BudgetScopeType, ref: string): BudgetScope {
  const field = FIELD_OF[type];
  return field ? { type, [field]: ref } : { type };
}

/** Who made a call, as far as budgets apply to it: its key, its endpoint, and its tags (the key's defaults merged). */
export interface SpendingParty {
  keyId: string;
  endpointId: string;
  tags: Tags;
}

/** The same scope as a filter of the execution logs: the rows whose spending it counts. */
export function spendScopeOf(type: BudgetScopeType, ref: string): SpendScope {
  switch (type) {
    case 'tenant':
      return {};
    case 'key':
      return { keyId: ref };
    case 'endpoint':
      return { endpointId: ref };
    case 'tag':
      return { tag: splitTag(ref)! };
  }
}

/** A tag `key:value` split at its first colon (tag keys hold none); null when it has none. */
function splitTag(text: string): { key: string; value: string } | null {
  const colon = text.indexOf(':');
  return colon < 0 ? null : { key: text.slice(0, colon), value: text.slice(colon + 1) };
}
