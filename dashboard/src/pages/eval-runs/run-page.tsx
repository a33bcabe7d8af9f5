import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { api, ApiError, unwrap } from '../../api/client';
import { useWriteBlock } from '../../session';
import { Button, Loading, PageHeader, Problems } from '../../ui/controls';
import { formatCost, formatDate, formatMs, formatNumber } from '../../ui/format';
import { useAction } from '../../ui/use-action';
import { useLoad } from '../../ui/use-load';
import { datasetHref } from '../datasets/evaluate-tab';
import { jsonPreview } from '../datasets/rules';
import { UnifiedDiff } from '../versions/version-compare';
import {
  type EvalRun,
  type EvalRunItem,
  type EvalSide,
  formatRate,
  isFinished,
  itemsShown,
  outputDiff,
  outputText,
  progressOf,
  STATUS_BADGE,
  STATUS_LABEL,
  VERDICT_LABEL,
  versionLabel,
} from './rules';
import { usePolling, usePromptNames } from './runs-list';
import '../datasets/datasets.css';
import '../endpoints/endpoints.css';
import '../versions/versions.css';
import './eval-runs.css';

/**
 * An evaluation run: followed while it is queued or running (asked again every second and a half, no longer once it
 * ended), cancelled, its summary, and each item's candidate and baseline answers side by side, the regressions first.
 */
export default function RunPage() {
  const { id = '', runId = '' } = useParams<{ id: string; runId: string }>();
  const loaded = useLoad(async () => {
    const [run, items] = await Promise.all([
      unwrap(api.GET('/admin/v1/eval-runs/{id}', { params: { path: { id: runId } } })),
      unwrap(api.GET('/admin/v1/eval-runs/{id}/items', { params: { path: { id: runId } } })),
    ]);
    const dataset = await unwrap(api.GET('/admin/v1/datasets/{id}', { params: { path: { id: run.datasetId } } })).catch(
      () => null,
    );
    return { run, items, dataset };
  }, [runId]);
  const data = loaded.data?.run.id === runId && loaded.data.run.endpointId === id ? loaded.data : null;
  usePolling(data !== null && !isFinished(data.run.status) && !loaded.error, loaded.reload, loaded.data);

  if (!data) {
    const missing =
      (loaded.error instanceof ApiError && [400, 404].includes(loaded.error.status)) ||
      (loaded.data !== undefined && loaded.data.run.endpointId !== id && !loaded.loading);
    return (
      <section>
        <PageHeader
          title={missing ? 'Run not found' : 'Evaluation run'}
          back={<Link href={`/endpoints/${id}/evaluate`}>← Evaluate</Link>}
        />
        {missing ? (
          <p>No evaluation run of this endpoint has this address.</p>
        ) : (
          <>
            <Problems error={loaded.error} />
            {!loaded.error && <Loading what="the run" />}
          </>
        )}
      </section>
    );
  }
  return (
    <RunView
      run={data.run}
      items={data.items}
      datasetName={data.dataset?.name ?? null}
      error={loaded.error}
      reload={loaded.reload}
    />
  );
}

function RunView({
  run,
  items,
  datasetName,
  error,
  reload,
}: {
  run: EvalRun;
  items: EvalRunItem[];
  datasetName: string | null;
  error: unknown;
  reload: () => void;
}) {
  const blocked = useWriteBlock();
  const names = usePromptNames(run.endpointId);
  const cancelling = useAction();
  const finished = isFinished(run.status);
  const { done, total } = progressOf(items);
  const { summary } = run;
  const back = datasetHref({ id: run.datasetId, endpointId: run.endpointId });

  async function cancel() {
    const cancelled = await cancelling.run(() =>
      unwrap(api.POST('/admin/v1/eval-runs/{id}/cancel', { params: { path: { id: run.id } } })),
    );
    if (cancelled) reload();
  }

  return (
    <section className="run-page">
      <PageHeader
        title={`Run of ${datasetName ?? 'a deleted dataset'}`}
        back={<Link href={back}>← {datasetName ?? 'Dataset'}</Link>}
      >
        {!finished && (
          <Button kind="danger" blocked={blocked} disabled={cancelling.busy} onClick={cancel}>
            Cancel run
          </Button>
        )}
      </PageHeader>
      <div className="run-status" role="status">
        <span className={`badge ${STATUS_BADGE[run.status]}`}>{STATUS_LABEL[run.status]}</span>{' '}
        {finished
          ? `${formatNumber(done)} of ${formatNumber(total)} items ran.`
          : `${formatNumber(done)} of ${formatNumber(total)} items done…`}
      </div>
      {!finished && <progress className="run-progress" aria-label="Items done" value={done} max={total || 1} />}
      {run.errorMessage && <p className="problems">{run.errorMessage}</p>}
      <Problems error={cancelling.error} />
      <Problems error={error} />

      <dl className="dataset-facts run-facts" aria-label="Run">
        <div>
          <dt>Candidate</dt>
          <dd>
            <Link href={`/endpoints/${run.endpointId}/prompts/${run.candidate.promptId}`}>
              {versionLabel(run.candidate, names)}
            </Link>
          </dd>
        </div>
        <div>
          <dt>Baseline</dt>
          <dd>
            {run.baseline ? (
              <Link href={`/endpoints/${run.endpointId}/prompts/${run.baseline.promptId}`}>
                {versionLabel(run.baseline, names)}
              </Link>
            ) : (
              'None'
            )}
          </dd>
        </div>
        <div>
          <dt>Dataset version</dt>
          <dd>v{run.datasetVersion}</dd>
        </div>
        <div>
          <dt>Repeats</dt>
          <dd>{run.repeats}</dd>
        </div>
        <div>
          <dt>Concurrency</dt>
          <dd>{run.concurrency}</dd>
        </div>
        <div>
          <dt>Answers</dt>
          <dd>{run.fresh ? 'All called again' : 'Kept ones reused'}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{formatDate(run.startedAt ?? run.createdAt)}</dd>
        </div>
        <div>
          <dt>Finished</dt>
          <dd>{formatDate(run.finishedAt)}</dd>
        </div>
      </dl>

      <section className="panel" aria-labelledby="summary-title">
        <h2 id="summary-title">Summary</h2>
        <dl className="dataset-facts run-summary">
          <div>
            <dt>Pass rate</dt>
            <dd>
              {formatRate(summary.passRate)} ({formatNumber(summary.passed)} of {formatNumber(summary.items)})
            </dd>
          </div>
          <div>
            <dt>Baseline pass rate</dt>
            <dd>{formatRate(summary.baselinePassRate)}</dd>
          </div>
          <div>
            <dt>Regressions</dt>
            <dd>{formatNumber(summary.regressions)}</dd>
          </div>
          <div>
            <dt>Improvements</dt>
            <dd>{formatNumber(summary.improvements)}</dd>
          </div>
          <div>
            <dt>Cost</dt>
            <dd>{formatCost(summary.costUsd)}</dd>
          </div>
          <div>
            <dt>Duration</dt>
            <dd>{formatMs(summary.durationMs)}</dd>
          </div>
        </dl>
      </section>

      <Results run={run} items={items} />
    </section>
  );
}

/** The items, the regressions only until asked for all. */
function Results({ run, items }: { run: EvalRun; items: EvalRunItem[] }) {
  const [showAll, setShowAll] = useState(false);
  const shown = itemsShown(items, showAll);
  const regressions = items.filter((item) => item.verdict === 'regressed').length;
  return (
    <section className="panel" aria-labelledby="results-title">
      <div className="section-header">
        <h2 id="results-title">Results</h2>
        <div className="view-toggle-buttons" role="group" aria-label="Items shown">
          <Button aria-pressed={!showAll} onClick={() => setShowAll(false)}>
            Regressions ({formatNumber(regressions)})
          </Button>
          <Button aria-pressed={showAll} onClick={() => setShowAll(true)}>
            All items ({formatNumber(items.length)})
          </Button>
        </div>
      </div>
      {shown.length === 0 ? (
        <p className="empty">
          {showAll
            ? 'The dataset had no items at the run’s version.'
            : run.baseline
              ? 'No regressions: no item the baseline passes fails with the candidate.'
              : 'No regressions: the run has no baseline to compare with.'}
        </p>
      ) : (
        shown.map((item) => <ItemResult key={item.itemId} item={item} hasBaseline={run.baseline !== null} />)
      )}
    </section>
  );
}

function ItemResult({ item, hasBaseline }: { item: EvalRunItem; hasBaseline: boolean }) {
  const number = item.position + 1;
  const candidate = outputText(item.candidate.output);
  const baseline = item.baseline ? outputText(item.baseline.output) : null;
  return (
    <article className="run-item" aria-labelledby={`item-${item.itemId}`}>
      <header className="run-item-header">
        <h3 id={`item-${item.itemId}`}>Item {number}</h3>
        {item.verdict ? (
          <span className={`badge verdict-${item.verdict}`}>{VERDICT_LABEL[item.verdict]}</span>
        ) : (
          <span className="badge">Not run yet</span>
        )}
        <code className="run-item-inputs">{jsonPreview(item.inputs)}</code>
      </header>
      {item.expectedOutput !== null && (
        <p className="muted">
          Expected: <code>{jsonPreview(item.expectedOutput)}</code>
        </p>
      )}
      <div className={`run-sides ${hasBaseline ? 'two' : 'one'}`}>
        <SideResult name="Candidate" side={item.candidate} />
        {item.baseline && <SideResult name="Baseline" side={item.baseline} />}
      </div>
      {baseline !== null &&
        item.baseline?.passed !== null &&
        item.candidate.passed !== null &&
        (baseline === candidate ? (
          <p className="muted">The candidate's output is the same as the baseline's.</p>
        ) : (
          <details className="run-diff" open>
            <summary>Output diff, baseline → candidate</summary>
            <UnifiedDiff
              lines={outputDiff(baseline, candidate)}
              fromName="Baseline"
              toName="Candidate"
              short={{ from: 'B', to: 'C' }}
              what={`item ${number}'s output`}
            />
          </details>
        ))}
    </article>
  );
}

function SideResult({ name, side }: { name: string; side: EvalSide }) {
  return (
    <section className="run-side" aria-label={name}>
      <h4>
        {name}{' '}
        {side.passed === null ? (
          <span className="badge">Pending</span>
        ) : side.passed ? (
          <span className="badge ok">Passes</span>
        ) : (
          <span className="badge error">Fails</span>
        )}
      </h4>
      {side.errorMessage ? (
        <p className="problems">{side.errorMessage}</p>
      ) : (
        <pre className="run-output" tabIndex={0}>
          {outputText(side.output) || '—'}
        </pre>
      )}
      {side.checks.length > 0 && (
        <ul className="run-checks">
          {side.checks.map((check, index) => (
            <li key={index} className={check.pass ? 'pass' : 'fail'}>
              <strong>{check.pass ? '✓ Pass' : '✗ Fail'}</strong> <code>{check.type}</code>
              {check.reason && <span>: {check.reason}</span>}
            </li>
          ))}
        </ul>
      )}
      <p className="run-side-facts muted">
        {formatCost(side.costUsd)} · {formatMs(side.latencyMs)}
        {side.cached ? ' · kept from an earlier run' : ''}
        {side.logId && (
          <>
            {' · '}
            <Link href={`/logs/${side.logId}`} aria-label={`${name}'s log row`}>
              Log
            </Link>
          </>
        )}
        {side.repeats.length > 1 &&
          ` · ${side.repeats.filter((repeat) => repeat.passed).length} of ${side.repeats.length} repeats pass`}
      </p>
    </section>
  );
}
