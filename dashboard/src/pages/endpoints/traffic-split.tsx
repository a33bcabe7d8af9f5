import { useState } from 'react';
import { Link } from 'wouter';
import { api, type Schemas, unwrap } from '../../api/client';
import { bounds } from '../../api/bounds';
import { useWriteBlock } from '../../session';
import { Button, Loading, Problems } from '../../ui/controls';
import { formatCost, formatMs, formatNumber } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { useAction } from '../../ui/use-action';
import type { Endpoint } from './endpoint-common';
import { QualityCell, QualityPicker } from './split-quality';
import { qualityChoices, type ScoreConfig } from './split-quality/rules';

type Prompt = Schemas['PromptResponse'];
type Split = NonNullable<Endpoint['trafficSplit']>;
type GroupTotals = Schemas['StatsGroupTotalsResponse'];

const VARIANTS = { min: 2, max: 5 };
const WEIGHT = bounds.TrafficSplitVariantDto.weight;
const STICKY_LABEL = { key: 'the calling key', header: 'a request header', none: 'nothing (random by weight)' };
/** The figures beside the split cover the last 7 days (the stats default) of calls made through the execution API. */
const FIGURES_SPAN = 'last 7 days';

type StickyKind = keyof typeof STICKY_LABEL;

function stickyKindOf(stickyBy: string): StickyKind {
  return stickyBy === 'key' || stickyBy === 'none' ? stickyBy : 'header';
}

function describeSticky(stickyBy: string): string {
  if (stickyBy === 'key') return 'Each key stays on one prompt.';
  if (stickyBy === 'none') return 'Every call is assigned at random by the weights.';
  return `Each value of the ${stickyBy.slice('header:'.length)} header stays on one prompt; calls without it are assigned at random by the weights.`;
}

/**
 * The endpoint's traffic split: which Live prompts share the calls without `?prompt=`, by what weight and sticky by
 * what, with each prompt's figures beside it (calls, errors, latency, cost) to decide between them.
 */
export function TrafficSplitSection({
  endpoint,
  prompts,
  onChanged,
}: {
  endpoint: Endpoint;
  prompts: Prompt[] | undefined;
  onChanged: () => void;
}) {
  const blocked = useWriteBlock();
  const [editing, setEditing] = useState(false);
  const remove = useAction();
  const split = endpoint.trafficSplit;
  const [scoreName, setScoreName] = useState('');
  const configs = useLoad(() => unwrap(api.GET('/admin/v1/score-configs')), []);
  const choices = qualityChoices(configs.data ?? []);
  const scoreConfig = choices.find((choice) => choice.name === scoreName);
  const figures = useLoad(
    () =>
      unwrap(
        api.GET('/admin/v1/stats', {
          // With a score: each prompt's mean (or share of true), its interval and its verdict against the best other.
          // Only the calls made through the execution API: the test runner's and MCP's runs are not the split's traffic.
          params: { query: { endpointId: endpoint.id, groupBy: 'prompt', source: 'Api', score: scoreConfig?.name } },
        }),
      ).then(
        // Asked with groupBy=prompt: every group is a prompt's.
        (stats) =>
          new Map(
            (stats.groups ?? []).flatMap((group) => ('promptId' in group ? [[group.promptId, group] as const] : [])),
          ),
      ),
    [endpoint.id, endpoint.updatedAt, scoreConfig?.name],
  );
  const live = prompts?.filter((prompt) => prompt.status === 'Live') ?? [];
  const nameOf = (promptId: string) => prompts?.find((prompt) => prompt.id === promptId)?.name ?? promptId;

  async function removeSplit() {
    const done = await remove.run(() =>
      unwrap(
        api.PUT('/admin/v1/endpoints/{id}', { params: { path: { id: endpoint.id } }, body: { trafficSplit: null } }),
      ),
    );
    if (done !== undefined) onChanged();
  }

  return (
    <section className="panel traffic-split" aria-labelledby="split-title">
      <div className="section-header">
        <h2 id="split-title">Traffic split</h2>
        {!editing && (
          <div className="actions">
            <Button
              blocked={blocked ?? (live.length < VARIANTS.min ? 'A split needs at least two Live prompts' : null)}
              onClick={() => setEditing(true)}
            >
              {split ? 'Edit split' : 'Split traffic'}
            </Button>
            {split && (
              <Button kind="danger" blocked={blocked} disabled={remove.busy} onClick={removeSplit}>
                Remove split
              </Button>
            )}
          </div>
        )}
      </div>
      <Problems error={remove.error} />
      {editing ? (
        <SplitEditor
          endpoint={endpoint}
          live={live}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            onChanged();
          }}
        />
      ) : split ? (
        <>
          <p className="muted">
            Calls without <code>?prompt=</code> are shared between these prompts. {describeSticky(split.stickyBy)}{' '}
            Figures: {FIGURES_SPAN}, each prompt's calls made through the API (test runs and MCP runs left out; every
            source in <Link href={`/stats?endpointId=${endpoint.id}`}>Stats</Link>).
          </p>
          {choices.length > 0 && <QualityPicker choices={choices} value={scoreName} onChange={setScoreName} />}
          <FiguresTable
            rows={split.variants.map((variant) => ({
              promptId: variant.promptId,
              name: nameOf(variant.promptId),
              weight: variant.weight,
            }))}
            figures={figures.loading ? undefined : figures.data}
            endpointId={endpoint.id}
            score={scoreConfig}
          />
          <Problems error={figures.error} />
        </>
      ) : (
        <p className="muted">
          No split: the default prompt answers every call without <code>?prompt=</code>. A split shares those calls
          between 2 to 5 Live prompts by weight (for example 90/10 to try a new prompt on a tenth of the traffic).
        </p>
      )}
    </section>
  );
}

/** The split's prompts with their weight and figures, side by side. */
function FiguresTable({
  rows,
  figures,
  endpointId,
  score,
}: {
  rows: { promptId: string; name: string; weight: number }[];
  figures: Map<string, { totals: GroupTotals }> | undefined;
  endpointId: string;
  /** The score of the quality column; none without one. */
  score: ScoreConfig | undefined;
}) {
  return (
    <div className="table-wrap">
      <table aria-label="Traffic split and figures per prompt">
        <thead>
          <tr>
            <th scope="col">Prompt</th>
            <th scope="col">Weight</th>
            <th scope="col">Calls</th>
            <th scope="col">Error rate</th>
            <th scope="col">p95 latency</th>
            <th scope="col">Cost</th>
            {score && <th scope="col">Quality: {score.name}</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const totals = figures?.get(row.promptId)?.totals;
            return (
              <tr key={row.promptId}>
                <td>
                  <Link href={`/endpoints/${endpointId}/prompts/${row.promptId}`}>{row.name}</Link>
                </td>
                <td>{row.weight} %</td>
                {figures === undefined ? (
                  <td colSpan={score ? 5 : 4}>
                    <Loading what="figures" />
                  </td>
                ) : (
                  <>
                    <td>{formatNumber(totals?.calls ?? 0)}</td>
                    <td>{totals?.errorRate == null ? '—' : `${(totals.errorRate * 100).toFixed(1)} %`}</td>
                    <td>{formatMs(totals?.latencyMs.p95)}</td>
                    <td>{formatCost(totals?.costUsd ?? 0)}</td>
                    {score && <QualityCell score={totals?.scores} config={score} />}
                  </>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

interface Row {
  promptId: string;
  weight: string;
}

/** Choose 2 to 5 Live prompts, their weights (summing to 100) and what a caller sticks by. */
function SplitEditor({
  endpoint,
  live,
  onCancel,
  onSaved,
}: {
  endpoint: Endpoint;
  live: Prompt[];
  onCancel: () => void;
  onSaved: () => void;
}) {
  const current = endpoint.trafficSplit;
  const [rows, setRows] = useState<Row[]>(() =>
    current
      ? current.variants.map((variant) => ({ promptId: variant.promptId, weight: String(variant.weight) }))
      : initialRows(endpoint, live),
  );
  const [sticky, setSticky] = useState<StickyKind>(current ? stickyKindOf(current.stickyBy) : 'key');
  const [header, setHeader] = useState(
    current && stickyKindOf(current.stickyBy) === 'header' ? current.stickyBy.slice('header:'.length) : 'x-user-id',
  );
  const save = useAction();
  const total = rows.reduce((sum, row) => sum + (Number.parseInt(row.weight, 10) || 0), 0);
  const update = (index: number, change: Partial<Row>) =>
    setRows(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const unused = live.filter((prompt) => !rows.some((row) => row.promptId === prompt.id));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const trafficSplit: Split = {
      variants: rows.map((row) => ({ promptId: row.promptId, weight: Number(row.weight) })),
      stickyBy: sticky === 'header' ? `header:${header.trim()}` : sticky,
    };
    const done = await save.run(() =>
      unwrap(api.PUT('/admin/v1/endpoints/{id}', { params: { path: { id: endpoint.id } }, body: { trafficSplit } })),
    );
    if (done !== undefined) onSaved();
  }

  return (
    <form className="split-editor" onSubmit={submit} aria-label="Traffic split">
      <table>
        <caption className="visually-hidden">Variants</caption>
        <thead>
          <tr>
            <th scope="col">Live prompt</th>
            <th scope="col">Weight (%)</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index}>
              <td>
                <select
                  aria-label={`Prompt of variant ${index + 1}`}
                  value={row.promptId}
                  onChange={(event) => update(index, { promptId: event.target.value })}
                >
                  {live
                    .filter((prompt) => prompt.id === row.promptId || !rows.some((r) => r.promptId === prompt.id))
                    .map((prompt) => (
                      <option key={prompt.id} value={prompt.id}>
                        {prompt.name}
                        {prompt.isDefault ? ' (default)' : ''}
                      </option>
                    ))}
                </select>
              </td>
              <td>
                <input
                  type="number"
                  aria-label={`Weight of variant ${index + 1}`}
                  min={WEIGHT.minimum}
                  max={WEIGHT.maximum}
                  step={1}
                  required
                  value={row.weight}
                  onChange={(event) => update(index, { weight: event.target.value })}
                />
              </td>
              <td>
                <Button
                  disabled={rows.length <= VARIANTS.min}
                  onClick={() => setRows(rows.filter((_, i) => i !== index))}
                  aria-label={`Remove variant ${index + 1}`}
                >
                  Remove
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className={total === 100 ? 'muted' : 'field-error'} aria-live="polite">
        Total: {total} % {total === 100 ? '' : '(the weights must sum to 100)'}
      </p>
      <div className="form-actions start">
        <Button
          disabled={rows.length >= VARIANTS.max || unused.length === 0}
          onClick={() => setRows([...rows, { promptId: unused[0].id, weight: '0' }])}
        >
          Add a prompt
        </Button>
      </div>
      <fieldset>
        <legend>Keep each caller on one prompt by</legend>
        {(Object.keys(STICKY_LABEL) as StickyKind[]).map((kind) => (
          <label key={kind} className="radio">
            <input type="radio" name="sticky" checked={sticky === kind} onChange={() => setSticky(kind)} />{' '}
            {STICKY_LABEL[kind]}
          </label>
        ))}
        {sticky === 'header' && (
          <label>
            Header name{' '}
            <input
              value={header}
              required
              maxLength={100}
              pattern="[!#$%&'*+.^_`|~0-9A-Za-z\-]+"
              onChange={(event) => setHeader(event.target.value)}
            />
          </label>
        )}
      </fieldset>
      <Problems error={save.error} />
      <div className="form-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button kind="primary" type="submit" disabled={save.busy || total !== 100}>
          Save split
        </Button>
      </div>
    </form>
  );
}

/** A new split starts as 90/10: the default (or the first Live prompt) and another Live prompt. */
function initialRows(endpoint: Endpoint, live: Prompt[]): Row[] {
  const first = live.find((prompt) => prompt.id === endpoint.defaultPromptId) ?? live[0];
  const second = live.find((prompt) => prompt.id !== first?.id);
  if (!first || !second) return [];
  return [
    { promptId: first.id, weight: '90' },
    { promptId: second.id, weight: '10' },
  ];
}
