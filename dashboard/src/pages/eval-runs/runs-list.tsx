import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { useWriteBlock } from '../../session';
import { Button, Loading, Problems } from '../../ui/controls';
import { formatCost, formatDate, formatNumber } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import type { Dataset } from '../datasets/rules';
import type { Endpoint } from '../endpoints/endpoint-common';
import { allPromptsOf } from '../runner/test-run';
import { RunForm } from './run-form';
import { type EvalRun, formatRate, isFinished, runHref, STATUS_BADGE, STATUS_LABEL, versionLabel } from './rules';
import './eval-runs.css';

/** How often a page asks again about runs that have not ended. */
export const POLL_MS = 1500;

/** Calls `reload` every POLL_MS while `active`; stops as soon as it is not. */
export function usePolling(active: boolean, reload: () => void, key: unknown): void {
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(reload, POLL_MS);
    return () => clearTimeout(timer);
    // `key` changes on every answer, so the next request starts only once the previous one came back.
  }, [active, key]);
}

/** The names of the endpoint's prompts by id (archived ones included, as old runs may name them). */
export function usePromptNames(endpointId: string): ReadonlyMap<string, string> {
  const prompts = useLoad(() => allPromptsOf(endpointId), [endpointId]);
  return new Map((prompts.data ?? []).map((prompt) => [prompt.id, prompt.name]));
}

/** A dataset's evaluation runs, newest first, with "Run" to start one; runs still going are followed. */
export function DatasetRuns({ endpoint, dataset }: { endpoint: Endpoint; dataset: Dataset }) {
  const blocked = useWriteBlock();
  const [starting, setStarting] = useState(false);
  const names = usePromptNames(endpoint.id);
  const runs = useLoad(
    async () =>
      (await unwrap(api.GET('/admin/v1/endpoints/{id}/eval-runs', { params: { path: { id: endpoint.id } } }))).filter(
        (run) => run.datasetId === dataset.id,
      ),
    [endpoint.id, dataset.id],
  );
  usePolling(runs.data?.some((run) => !isFinished(run.status)) ?? false, runs.reload, runs.data);

  return (
    <section className="panel" aria-labelledby="runs-title">
      <div className="section-header">
        <h2 id="runs-title">Runs</h2>
        <div className="actions">
          <Button
            kind="primary"
            blocked={blocked ?? (dataset.itemCount === 0 ? 'Add items to the dataset before running it.' : null)}
            disabled={starting}
            onClick={() => setStarting(true)}
          >
            Run
          </Button>
        </div>
      </div>
      {starting && <RunForm endpointId={endpoint.id} dataset={dataset} onCancel={() => setStarting(false)} />}
      <Problems error={runs.error} />
      {!runs.data ? (
        !runs.error && <Loading what="the runs" />
      ) : runs.data.length === 0 ? (
        <p className="empty">No runs of this dataset yet.</p>
      ) : (
        <RunsTable runs={runs.data} names={names} />
      )}
    </section>
  );
}

/** Runs with their status and summary, each linked to its page. */
export function RunsTable({ runs, names }: { runs: EvalRun[]; names: ReadonlyMap<string, string> }) {
  return (
    <div className="table-wrap">
      <table className="eval-runs">
        <caption className="visually-hidden">Evaluation runs, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Status</th>
            <th scope="col">Candidate</th>
            <th scope="col">Baseline</th>
            <th scope="col" className="number">
              Pass rate
            </th>
            <th scope="col" className="number">
              Baseline pass rate
            </th>
            <th scope="col" className="number">
              Regressions
            </th>
            <th scope="col" className="number">
              Improvements
            </th>
            <th scope="col" className="number">
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} data-run={run.id}>
              <td>
                <Link href={runHref(run)}>{formatDate(run.createdAt)}</Link>
              </td>
              <td>
                <span className={`badge ${STATUS_BADGE[run.status]}`}>{STATUS_LABEL[run.status]}</span>
              </td>
              <td>{versionLabel(run.candidate, names)}</td>
              <td>{versionLabel(run.baseline, names)}</td>
              <td className="number">
                {formatRate(run.summary.passRate)}{' '}
                <span className="muted">
                  ({formatNumber(run.summary.passed)}/{formatNumber(run.summary.items)})
                </span>
              </td>
              <td className="number">{formatRate(run.summary.baselinePassRate)}</td>
              <td className="number">{formatNumber(run.summary.regressions)}</td>
              <td className="number">{formatNumber(run.summary.improvements)}</td>
              <td className="number">{formatCost(run.summary.costUsd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
