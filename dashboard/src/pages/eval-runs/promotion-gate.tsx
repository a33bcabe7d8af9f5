import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { api, type Schemas, unwrap } from '../../api/client';
import { bounds } from '../../api/bounds';
import { useWriteBlock } from '../../session';
import { Button, Field, Problems } from '../../ui/controls';
import { formatNumber } from '../../ui/format';
import { useAction } from '../../ui/use-action';
import { useLoad } from '../../ui/use-load';
import type { Dataset } from '../datasets/rules';
import { type Endpoint, FormProblems, problemsByField } from '../endpoints/endpoint-common';
import { formatRate, runHref, STATUS_LABEL } from './rules';
import './eval-runs.css';

export type PromotionGate = Schemas['PromotionGateResponse'];

const LIMITS = bounds.PromotionGateDto;

/** What the gate asks, in a sentence. */
export function gateSentence(gate: PromotionGate, datasetName: string | null): string {
  const regressions =
    gate.maxRegressions === 0
      ? 'no regressions'
      : `at most ${formatNumber(gate.maxRegressions)} regression${gate.maxRegressions === 1 ? '' : 's'}`;
  return (
    `Promoting a prompt needs a completed run of ${datasetName ? `“${datasetName}”` : 'the gate’s dataset'}, at ` +
    `its current version, for the prompt's current version against the current default, passing at least ` +
    `${formatRate(gate.minPassRate)} of the items with ${regressions}.`
  );
}

/**
 * The endpoint's promotion gate on its Evaluate tab: the dataset a prompt's run must pass before the prompt is
 * promoted, the least pass rate and the most regressions; none for no gate.
 */
export function PromotionGateForm({
  endpoint,
  datasets,
  onSaved,
}: {
  endpoint: Endpoint;
  datasets: Dataset[];
  onSaved: () => void;
}) {
  const blocked = useWriteBlock();
  const saved = endpoint.promotionGate;
  const [datasetId, setDatasetId] = useState(saved?.datasetId ?? '');
  const [minPassRate, setMinPassRate] = useState(String(Math.round((saved?.minPassRate ?? 1) * 1000) / 10));
  const [maxRegressions, setMaxRegressions] = useState(String(saved?.maxRegressions ?? 0));
  const [done, setDone] = useState<string | null>(null);
  const saving = useAction();
  const fields = ['promotionGate.datasetId', 'promotionGate.minPassRate', 'promotionGate.maxRegressions'] as const;
  const { byField, others } = problemsByField(saving.error, fields);

  async function save(event: FormEvent) {
    event.preventDefault();
    setDone(null);
    const promotionGate = datasetId
      ? { datasetId, minPassRate: Number(minPassRate) / 100, maxRegressions: Number(maxRegressions) }
      : null;
    const updated = await saving.run(() =>
      unwrap(api.PUT('/admin/v1/endpoints/{id}', { params: { path: { id: endpoint.id } }, body: { promotionGate } })),
    );
    if (updated) {
      setDone(promotionGate ? 'Saved the promotion gate.' : 'Removed the promotion gate.');
      onSaved();
    }
  }

  const current = saved ? datasets.find((dataset) => dataset.id === saved.datasetId) : undefined;
  return (
    <section className="panel" aria-labelledby="gate-title">
      <h2 id="gate-title">Promotion gate</h2>
      <p className="muted">
        {saved
          ? gateSentence(saved, current?.name ?? null)
          : 'No gate: any Draft prompt of this endpoint can be promoted. Choose a dataset to ask for a passing run first.'}
      </p>
      <form className="inline gate-form" aria-label="Promotion gate" onSubmit={save} noValidate>
        <Field label="Dataset" error={byField['promotionGate.datasetId']}>
          {(id) => (
            <select id={id} value={datasetId} onChange={(event) => setDatasetId(event.target.value)}>
              <option value="">No gate</option>
              {datasets.map((dataset) => (
                <option key={dataset.id} value={dataset.id}>
                  {dataset.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Minimum pass rate (%)" hint="0–100" error={byField['promotionGate.minPassRate']}>
          {(id) => (
            <input
              id={id}
              type="number"
              min={LIMITS.minPassRate.minimum * 100}
              max={LIMITS.minPassRate.maximum * 100}
              step="any"
              value={minPassRate}
              disabled={!datasetId}
              onChange={(event) => setMinPassRate(event.target.value)}
            />
          )}
        </Field>
        <Field label="Maximum regressions" error={byField['promotionGate.maxRegressions']}>
          {(id) => (
            <input
              id={id}
              type="number"
              min={LIMITS.maxRegressions.minimum}
              value={maxRegressions}
              disabled={!datasetId}
              onChange={(event) => setMaxRegressions(event.target.value)}
            />
          )}
        </Field>
        <Button type="submit" kind="primary" blocked={blocked} disabled={saving.busy}>
          Save gate
        </Button>
      </form>
      <FormProblems messages={others} />
      <p role="status" className="action-done">
        {done}
      </p>
    </section>
  );
}

/**
 * Beside a Draft prompt's Promote button: what the endpoint's gate asks, whether a promotion of the prompt's current
 * version would pass it now and why not (the service's own verdict; the promotion decides again), and the newest run of
 * the gate's dataset for that version.
 */
export function GateState({
  gate,
  endpointId,
  promptId,
  versionNumber,
}: {
  gate: PromotionGate;
  endpointId: string;
  promptId: string;
  versionNumber: number;
}) {
  const loaded = useLoad(async () => {
    const [dataset, state, runs] = await Promise.all([
      unwrap(api.GET('/admin/v1/datasets/{id}', { params: { path: { id: gate.datasetId } } })).catch(() => null),
      unwrap(api.GET('/admin/v1/prompts/{id}/promotion-gate', { params: { path: { id: promptId } } })),
      unwrap(api.GET('/admin/v1/endpoints/{id}/eval-runs', { params: { path: { id: endpointId } } })),
    ]);
    const newest = runs.find(
      (run) =>
        run.datasetId === gate.datasetId &&
        run.candidate.promptId === promptId &&
        run.candidate.versionNumber === versionNumber,
    );
    return { dataset, state, newest };
  }, [gate.datasetId, endpointId, promptId, versionNumber]);
  const dataset = loaded.data?.dataset ?? null;
  const newest = loaded.data?.newest;
  const state = loaded.data?.state;
  return (
    <div className="gate-state" role="note" aria-label="Promotion gate">
      <p>
        <strong>Promotion gate.</strong> {gateSentence(gate, dataset?.name ?? null)}
      </p>
      {state &&
        (state.open ? (
          <p className="gate-open">The gate is open: promoting version {versionNumber} now passes it.</p>
        ) : (
          <div className="gate-closed">
            <p>The gate is closed:</p>
            <ul>
              {state.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </div>
        ))}
      {loaded.data && (
        <p className="muted">
          {newest ? (
            <>
              Newest run of version {versionNumber}: <Link href={runHref(newest)}>{STATUS_LABEL[newest.status]}</Link>,
              pass rate {formatRate(newest.summary.passRate)}, {formatNumber(newest.summary.regressions)} regression
              {newest.summary.regressions === 1 ? '' : 's'}.
            </>
          ) : (
            <>
              No run of version {versionNumber} yet
              {dataset && (
                <>
                  {' '}
                  of <Link href={`/endpoints/${dataset.endpointId}/datasets/${dataset.id}`}>{dataset.name}</Link>
                </>
              )}
              : run it against the default first.
            </>
          )}
        </p>
      )}
      <Problems error={loaded.error} />
    </div>
  );
}

/** After the gate refused a promotion: its reasons, and a promotion past it with a reason (ReadWrite keys). */
export function GateRefusal({
  reasons,
  writeBlock,
  busy,
  onForce,
}: {
  reasons: string[];
  writeBlock: string | null;
  busy: boolean;
  onForce: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  return (
    <div className="gate-refusal">
      <div className="problems" role="alert">
        <p className="problems-title">The promotion gate is closed:</p>
        <ul>
          {reasons.map((one) => (
            <li key={one}>{one}</li>
          ))}
        </ul>
      </div>
      <form
        aria-label="Promote anyway"
        onSubmit={(event) => {
          event.preventDefault();
          if (reason.trim() === '') return setMissing(true);
          onForce(reason.trim());
        }}
        noValidate
      >
        <Field
          label="Reason for promoting anyway"
          hint="Recorded on the version."
          error={missing && reason.trim() === '' ? 'Promoting past the gate needs a reason.' : null}
        >
          {(id) => (
            <input
              id={id}
              value={reason}
              maxLength={bounds.PromotePromptDto.reason.maxLength}
              disabled={Boolean(writeBlock)}
              onChange={(event) => setReason(event.target.value)}
            />
          )}
        </Field>
        <Button type="submit" kind="danger" blocked={writeBlock} disabled={busy}>
          Promote anyway
        </Button>
      </form>
    </div>
  );
}
