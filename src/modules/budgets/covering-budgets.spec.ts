import type { ActiveBudget } from './active-budget';
import type { BudgetScopeType } from './budget-scope';
import { CoveringBudgets } from './covering-budgets';

function budget(name: string, scopeType: BudgetScopeType, scopeRef = '', enabled = true): ActiveBudget {
  return {
    id: name,
    tenantId: 'tenant',
    name,
    scopeType,
    scopeRef,
    period: 'day',
    limitUnits: 1,
    enabled,
    entryPrefix: name,
  };
}

const party = { keyId: 'key-1', endpointId: 'endpoint-1', tags: { feature: 'summaries', team: 'search' } };
const names = (budgets: ActiveBudget[]) => budgets.map((found) => found.name);

describe('CoveringBudgets', () => {
  it("finds the tenant's, the key's, the endpoint's and each tag's budgets, in the list's order", () => {
    const budgets = new CoveringBudgets([
      budget('team tag', 'tag', 'team:search'),
      budget('other key', 'key', 'key-2'),
      budget('endpoint', 'endpoint', 'endpoint-1'),
      budget('tenant', 'tenant'),
      budget('other endpoint', 'endpoint', 'endpoint-2'),
      budget('key', 'key', 'key-1'),
      budget('feature tag', 'tag', 'feature:summaries'),
      budget('other value', 'tag', 'feature:search'),
      budget('other tag', 'tag', 'customer:summaries'),
    ]);
    expect(names(budgets.of(party))).toEqual(['team tag', 'endpoint', 'tenant', 'key', 'feature tag']);
    expect(names(budgets.of({ keyId: 'key-2', endpointId: 'endpoint-3', tags: {} }))).toEqual(['other key', 'tenant']);
  });

  it('leaves disabled budgets out', () => {
    const budgets = new CoveringBudgets([budget('tenant', 'tenant', '', false), budget('key', 'key', 'key-1', false)]);
    expect(budgets.isEmpty).toBe(true);
    expect(budgets.of(party)).toEqual([]);
  });

  it('matches a tag value holding colons whole, and a tag only by its own value', () => {
    const budgets = new CoveringBudgets([budget('url', 'tag', 'source:https://example.com:8080')]);
    expect(names(budgets.of({ ...party, tags: { source: 'https://example.com:8080' } }))).toEqual(['url']);
    expect(budgets.of({ ...party, tags: { source: 'https://example.com' } })).toEqual([]);
    expect(budgets.of({ ...party, tags: { constructor: 'x' } })).toEqual([]);
  });
});
