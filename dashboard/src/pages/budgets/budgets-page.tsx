import { api, type Schemas, unwrap } from '../../api/client';
import { Button, Loading, PageHeader, Problems } from '../../ui/controls';
import { useLoad } from '../../ui/use-load';
import './budgets.css';

type Budget = Schemas['BudgetResponse'];

const SCOPES: Record<Budget['scope']['type'], string> = {
  key: 'Key',
  endpoint: 'Endpoint',
  tenant: 'Whole tenant',
  tag: 'Tag',
};

/** The tenant's spend budgets with where each stands in its current period (read only: they are set over the API). */
export default function BudgetsPage() {
  const budgets = useLoad(() => unwrap(api.GET('/admin/v1/budgets')), []);
  return (
    <section>
      <PageHeader title="Budgets">
        <Button onClick={budgets.reload} disabled={budgets.loading}>
          Refresh
        </Button>
      </PageHeader>
      <p className="muted budgets-intro">
        Ceilings in US dollars on what a key, an endpoint, a tag or the whole tenant spends per UTC day or month. Each
        call reserves its worst-case cost before the model is called and is refused (429 budget_exceeded) when that
        would go over a limit; reserved is what calls in flight may still cost. Budgets are created and changed with the
        admin API (POST /admin/v1/budgets).
      </p>
      <Problems error={budgets.error} />
      {!budgets.data ? (
        !budgets.error && <Loading what="the budgets" />
      ) : budgets.data.length === 0 ? (
        <p className="empty">No budgets yet: calls are limited by their rate limits only.</p>
      ) : (
        <div className="table-wrap">
          <table className="budgets-table">
            <caption className="visually-hidden">Spend budgets and their current period</caption>
            <thead>
              <tr>
                <th scope="col">Budget</th>
                <th scope="col">Scope</th>
                <th scope="col">Period</th>
                <th scope="col" className="number">
                  Limit
                </th>
                <th scope="col" className="number">
                  Spent
                </th>
                <th scope="col" className="number">
                  Reserved
                </th>
                <th scope="col" className="number">
                  Remaining
                </th>
                <th scope="col">Burn so far</th>
              </tr>
            </thead>
            <tbody>
              {budgets.data.map((budget) => (
                <BudgetRow key={budget.id} budget={budget} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function BudgetRow({ budget }: { budget: Budget }) {
  const { status } = budget;
  const used = budget.limitUsd > 0 ? status.spentUsd / budget.limitUsd : 0;
  const elapsed = periodElapsed(status.periodStart, status.periodEnd);
  return (
    <tr data-budget={budget.id}>
      <th scope="row">
        <div className="budget-name">
          <span>{budget.name}</span>
          {!budget.enabled && <span className="badge">disabled</span>}
        </div>
      </th>
      <td>
        {SCOPES[budget.scope.type]}
        {scopeTarget(budget) && <code className="budget-target">{scopeTarget(budget)}</code>}
      </td>
      <td>
        {budget.period === 'day' ? 'Daily' : 'Monthly'}
        <div className="muted">{periodLabel(budget)}</div>
      </td>
      <td className="number">{dollars(budget.limitUsd)}</td>
      <td className="number">{dollars(status.spentUsd)}</td>
      <td className="number">{dollars(status.reservedUsd)}</td>
      <td className="number">{dollars(status.remainingUsd)}</td>
      <td>
        <meter
          min={0}
          max={1}
          low={Math.min(0.999, elapsed)}
          high={0.9}
          optimum={0}
          value={Math.min(1, used)}
          aria-label={`${budget.name}: share of the limit spent`}
        />
        <div className="burn">
          {percent(used)} of the limit spent, {percent(elapsed)} of the period gone
        </div>
      </td>
    </tr>
  );
}

function scopeTarget(budget: Budget): string | undefined {
  return budget.scope.keyId ?? budget.scope.endpointId ?? budget.scope.tag;
}

function periodElapsed(start: string, end: string): number {
  const from = new Date(start).getTime();
  const to = new Date(end).getTime();
  return Math.min(1, Math.max(0, (Date.now() - from) / (to - from)));
}

function periodLabel(budget: Budget): string {
  const start = new Date(budget.status.periodStart);
  return budget.period === 'day'
    ? start.toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' }) + ' (UTC)'
    : start.toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

function dollars(usd: number): string {
  return `$${usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`;
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}
