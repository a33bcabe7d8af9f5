import type { ActiveBudget } from './active-budget';
import type { SpendingParty } from './budget-scope';

/**
 * A tenant's enabled budgets, found by what they cover. A call is covered by the tenant's budgets, its key's, its
 * endpoint's, and the budget of each tag it carries (`key:value`, its value equal to the call's value of that key);
 * finding them is a few map reads however many budgets the tenant has. Built from one list of budgets (a change of
 * the list builds a new one). A call's budgets come in the list's order, so the budget a refusal names is always the
 * first of them that has no room.
 */
export class CoveringBudgets {
  private readonly tenant: ActiveBudget[] = [];
  private readonly byKey = new Map<string, ActiveBudget[]>();
  private readonly byEndpoint = new Map<string, ActiveBudget[]>();
  /** Tag key → tag value → budgets. */
  private readonly byTag = new Map<string, Map<string, ActiveBudget[]>>();
  private readonly position = new Map<ActiveBudget, number>();

  constructor(budgets: ActiveBudget[]) {
    budgets.forEach((budget, i) => {
      if (!budget.enabled) return;
      this.position.set(budget, i);
      switch (budget.scopeType) {
        case 'tenant':
          this.tenant.push(budget);
          break;
        case 'key':
          listIn(this.byKey, budget.scopeRef).push(budget);
          break;
        case 'endpoint':
          listIn(this.byEndpoint, budget.scopeRef).push(budget);
          break;
        case 'tag': {
          // Tag keys hold no colon: the value is what follows the first one.
          const colon = budget.scopeRef.indexOf(':');
          const values = this.byTag.get(budget.scopeRef.slice(0, colon)) ?? new Map<string, ActiveBudget[]>();
          this.byTag.set(budget.scopeRef.slice(0, colon), values);
          listIn(values, budget.scopeRef.slice(colon + 1)).push(budget);
          break;
        }
      }
    });
  }

  /** Whether no budget is enabled: no call is covered. */
  get isEmpty(): boolean {
    return this.position.size === 0;
  }

  /** The enabled budgets that cover a call, in the list's order. */
  of(party: SpendingParty): ActiveBudget[] {
    if (this.isEmpty) return [];
    const found = [...this.tenant];
    const byKey = this.byKey.get(party.keyId);
    if (byKey) found.push(...byKey);
    const byEndpoint = this.byEndpoint.get(party.endpointId);
    if (byEndpoint) found.push(...byEndpoint);
    if (this.byTag.size > 0) {
      for (const key in party.tags) {
        const byTag = Object.hasOwn(party.tags, key) ? this.byTag.get(key)?.get(party.tags[key]) : undefined;
        if (byTag) found.push(...byTag);
      }
    }
    if (found.length > 1) found.sort((a, b) => this.position.get(a)! - this.position.get(b)!);
    return found;
  }
}

function listIn<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  return list;
}
