import { useMemo } from 'react';
import { Link } from 'wouter';
import { api, type Schemas, unwrap } from '../../api/client';
import { useQuery } from '../../router';
import { Button, Field, Loading, PageHeader, Problems } from '../../ui/controls';
import { formatCost, formatMs, formatNumber } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { endpointLabel, loadEndpointNames } from '../logs/tenant-names';
import { DateTimeField } from '../logs/date-time-field';
import { isoOrUndefined, oneOf } from '../logs/time-range';
import { type ChartSeries, TimeChart } from './time-chart';
import { formatCount, formatRate, formatShare, formatUsd } from './stats-format';
import {
  callsHref,
  filterTags,
  groupByTag,
  groupByTagOf,
  type TagFilters,
  tagFiltersOf,
  tagQuery,
  tagSearch,
  withoutTagFilter,
  withTagFilter,
} from '../tags/rules';
import { AddTagFilter, TagFilterChips } from '../tags/tag-chips';
import { ByTag, GroupByTagForm } from './by-tag';
import './stats.css';

const INTERVALS = ['day', 'hour'] as const;
type Interval = (typeof INTERVALS)[number];

const HOUR_MS = 3_600_000;
const PRESETS = [
  { label: 'Last 24 hours', span: 24 * HOUR_MS },
  { label: 'Last 7 days', span: 7 * 24 * HOUR_MS },
  { label: 'Last 30 days', span: 30 * 24 * HOUR_MS },
] as const;
/** The span the service uses when the query gives no `from`: 7 days by day, 24 hours by hour. */
const DEFAULT_SPAN: Record<Interval, number> = { day: PRESETS[1].span, hour: PRESETS[0].span };

/** Colours for the lines, each also told apart by its dash and its name. */
const COLOURS = {
  calls: '#2952cc',
  errors: '#b42318',
  second: '#8a5a00',
  codes: ['#7a3db8', '#0f7b8a', '#c2410c', '#4d7c0f', '#be185d'],
};

type Stats = Schemas['StatsResponse'];

export default function StatsPage() {
  const [query, setQuery] = useQuery();
  const endpointId = query.get('endpointId') || undefined;
  const interval: Interval = oneOf(query.get('interval'), INTERVALS) ?? 'day';
  const from = isoOrUndefined(query.get('from'));
  const to = isoOrUndefined(query.get('to'));
  const tagFilters = tagFiltersOf(query);
  const groupTag = groupByTagOf(query.get('groupBy'));
  const tagGroupBy = groupByTag(groupTag);

  const endpoints = useLoad(loadEndpointNames, []);
  const stats = useLoad(
    // A tag key chosen breaks the figures down by its values; otherwise one endpoint's figures come with each of its
    // prompts' beside them (a traffic split's variants, side by side).
    () =>
      unwrap(
        api.GET('/admin/v1/stats', {
          params: {
            query: {
              endpointId,
              interval,
              from,
              to,
              groupBy: tagGroupBy ?? (endpointId ? 'prompt' : undefined),
              ...tagQuery(tagFilters),
            },
          },
        }),
      ),
    [endpointId, interval, from, to, groupTag, tagSearch(tagFilters)],
  );

  const current = {
    endpointId,
    interval: interval === 'day' ? undefined : interval,
    from,
    to,
    groupBy: tagGroupBy,
    ...tagQuery(tagFilters),
  };
  const apply = (next: Partial<typeof current>) => setQuery({ ...current, ...next });
  const span =
    from && to ? new Date(to).getTime() - new Date(from).getTime() : !from && !to ? DEFAULT_SPAN[interval] : null;

  const choosePreset = (presetSpan: number) => {
    // Up to the next whole minute, so the current minute's calls are in.
    const end = Math.ceil(Date.now() / 60_000) * 60_000;
    apply({ from: new Date(end - presetSpan).toISOString(), to: new Date(end).toISOString() });
  };

  const applyTags = (next: TagFilters) => apply(tagQuery(next));

  return (
    <section>
      <PageHeader title="Stats">
        <Link href={callsHref('/logs', endpointId, tagFilters)}>The calls in Logs</Link>
      </PageHeader>

      <form className="filters stats-filters" aria-label="What to show" onSubmit={(event) => event.preventDefault()}>
        <Field label="Endpoint">
          {(id) => (
            <select
              id={id}
              value={endpointId ?? ''}
              onChange={(event) => apply({ endpointId: event.target.value || undefined })}
            >
              <option value="">All endpoints of the tenant</option>
              {endpointId && endpoints.data && !endpoints.data.some((endpoint) => endpoint.id === endpointId) && (
                <option value={endpointId}>{endpointId}</option>
              )}
              {(endpoints.data ?? []).map((endpoint) => (
                <option key={endpoint.id} value={endpoint.id}>
                  {endpointLabel(endpoint)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset className="segmented">
          <legend>Interval</legend>
          {INTERVALS.map((value) => (
            <label key={value} className="checkbox">
              <input
                type="radio"
                name="interval"
                value={value}
                checked={interval === value}
                onChange={() => apply({ interval: value === 'day' ? undefined : value })}
              />
              {value === 'day' ? 'By day' : 'By hour'}
            </label>
          ))}
        </fieldset>
        <div className="presets" role="group" aria-label="Period">
          {PRESETS.map((preset) => (
            <Button
              key={preset.label}
              aria-pressed={span !== null && Math.abs(span - preset.span) < 60_000}
              onClick={() => choosePreset(preset.span)}
            >
              {preset.label}
            </Button>
          ))}
        </div>
        <DateTimeField label="From" value={from ?? stats.data?.from} onChange={(value) => apply({ from: value })} />
        <DateTimeField label="To" value={to ?? stats.data?.to} onChange={(value) => apply({ to: value })} />
      </form>
      <div className="stats-tags">
        <AddTagFilter onAdd={(tag) => applyTags(withTagFilter(tagFilters, tag))} />
        <GroupByTagForm
          key={groupTag ?? ''}
          tagKey={groupTag}
          onChange={(key) => apply({ groupBy: groupByTag(key) })}
        />
      </div>
      <TagFilterChips tags={filterTags(tagFilters)} onRemove={(tag) => applyTags(withoutTagFilter(tagFilters, tag))} />

      <Problems error={endpoints.error ?? stats.error} />
      {stats.data ? (
        <StatsView stats={stats.data} groupTag={groupTag} tagFilters={tagFilters} />
      ) : (
        !stats.error && <Loading what="the stats" />
      )}
    </section>
  );
}

function StatsView({
  stats,
  groupTag,
  tagFilters,
}: {
  stats: Stats;
  groupTag: string | undefined;
  tagFilters: TagFilters;
}) {
  const { totals } = stats;
  const period = `${utcLabel(stats.from, 'minute')} to ${utcLabel(stats.to, 'minute')} UTC`;
  return (
    <>
      <p className="muted stats-period">
        {period}, {stats.interval === 'hour' ? 'by hour' : 'by day'} (UTC {stats.interval === 'hour' ? 'hours' : 'days'}
        )
      </p>
      {/* A breakdown asked for by name comes first: it is what the reader is looking for. */}
      {groupTag && (
        <ByTag
          tagKey={groupTag}
          groups={tagGroupsOf(stats, groupTag)}
          filters={tagFilters}
          endpointId={stats.endpointId ?? undefined}
        />
      )}
      <div className="stats-layout">
        <div className="stats-charts">
          {totals.calls === 0 ? (
            <div className="panel empty stats-empty">
              <h2>No calls in this period</h2>
              <p>
                Execute an endpoint with an endpoint key, or run a prompt in the test runner: its calls, errors, latency
                and cost appear here. Choose a longer period to look further back.
              </p>
            </div>
          ) : (
            <Charts stats={stats} />
          )}
        </div>
        <Totals totals={totals} />
      </div>
      {!groupTag && stats.groups && stats.groups.length > 0 && <ByPrompt groups={stats.groups.filter(isPromptGroup)} />}
    </>
  );
}

/** The groups of the stats when they are the breakdown by `key`; undefined while another breakdown is shown. */
function tagGroupsOf(stats: Stats, key: string): Schemas['StatsTagGroupResponse'][] | undefined {
  const groups = stats.groups ?? [];
  return groups.every((group) => isTagGroup(group) && group.tag.key === key) ? groups.filter(isTagGroup) : undefined;
}

/** A group of groupBy=prompt. */
function isPromptGroup(
  group: Schemas['StatsGroupResponse'] | Schemas['StatsTagGroupResponse'],
): group is Schemas['StatsGroupResponse'] {
  return 'promptId' in group;
}

/** A group of groupBy=tag:<key>. */
function isTagGroup(
  group: Schemas['StatsGroupResponse'] | Schemas['StatsTagGroupResponse'],
): group is Schemas['StatsTagGroupResponse'] {
  return 'tag' in group;
}

/** Each prompt that ran in the period, with its totals: how the prompts of a traffic split compare. */
function ByPrompt({ groups }: { groups: Schemas['StatsGroupResponse'][] }) {
  return (
    <section className="panel stats-by-prompt" aria-labelledby="stats-by-prompt-title">
      <h2 id="stats-by-prompt-title">By prompt</h2>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Totals of each prompt</caption>
          <thead>
            <tr>
              <th scope="col">Prompt</th>
              <th scope="col" className="number">
                Calls
              </th>
              <th scope="col" className="number">
                Error rate
              </th>
              <th scope="col" className="number">
                Latency p50
              </th>
              <th scope="col" className="number">
                Latency p95
              </th>
              <th scope="col" className="number">
                Cost
              </th>
            </tr>
          </thead>
          <tbody>
            {groups.map((group) => (
              <tr key={group.promptId}>
                <td>{group.promptName ?? <code>{group.promptId}</code>}</td>
                <td className="number">{formatNumber(group.totals.calls)}</td>
                <td className="number">{formatRate(group.totals.errorRate)}</td>
                <td className="number">{formatMs(group.totals.latencyMs.p50)}</td>
                <td className="number">{formatMs(group.totals.latencyMs.p95)}</td>
                <td className="number">{formatCost(group.totals.costUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Charts({ stats }: { stats: Stats }) {
  const charts = useMemo(() => {
    const times = stats.series.map((bucket) => bucket.start);
    const column = (pick: (bucket: Stats['series'][number]) => number | null) => stats.series.map(pick);
    const codes = [...new Set(stats.series.flatMap((bucket) => Object.keys(bucket.errorsByCode)))].sort();
    const calls: ChartSeries[] = [
      { label: 'Calls', values: column((bucket) => bucket.calls), color: COLOURS.calls, summary: 'total' },
      {
        label: 'Errors',
        values: column((bucket) => bucket.errors),
        color: COLOURS.errors,
        dash: 'dashed',
        summary: 'total',
      },
      ...codes.map((code, index): ChartSeries => ({
        label: `Errors: ${code}`,
        values: column((bucket) => bucket.errorsByCode[code] ?? 0),
        color: COLOURS.codes[index % COLOURS.codes.length],
        dash: 'dotted',
        summary: 'total',
      })),
      {
        label: 'Cache hits',
        values: column((bucket) => bucket.cacheHits),
        color: COLOURS.second,
        dash: 'dashed',
        summary: 'total',
      },
    ];
    const share = (part: (bucket: Stats['series'][number]) => number) =>
      column((bucket) => (bucket.calls === 0 ? null : part(bucket) / bucket.calls));
    const rates: ChartSeries[] = [
      {
        label: 'Cache-hit rate',
        values: share((bucket) => bucket.cacheHits),
        color: COLOURS.second,
        summary: 'highest',
      },
      {
        label: 'Error rate',
        values: share((bucket) => bucket.errors),
        color: COLOURS.errors,
        dash: 'dashed',
        summary: 'highest',
      },
    ];
    const latency: ChartSeries[] = [
      { label: 'p50', values: column((bucket) => bucket.latencyMs.p50), color: COLOURS.calls, summary: 'highest' },
      {
        label: 'p95',
        values: column((bucket) => bucket.latencyMs.p95),
        color: COLOURS.errors,
        dash: 'dashed',
        summary: 'highest',
      },
    ];
    const cost: ChartSeries[] = [
      { label: 'Cost (USD)', values: column((bucket) => bucket.costUsd), color: COLOURS.calls, summary: 'total' },
    ];
    const tokens: ChartSeries[] = [
      { label: 'Input tokens', values: column((bucket) => bucket.inputTokens), color: COLOURS.calls, summary: 'total' },
      {
        label: 'Output tokens',
        values: column((bucket) => bucket.outputTokens),
        color: COLOURS.second,
        dash: 'dashed',
        summary: 'total',
      },
    ];
    return { times, calls, rates, latency, cost, tokens };
  }, [stats]);
  const unit = stats.interval === 'hour' ? 'minute' : 'day';
  const timeLabel = useMemo(() => (iso: string) => utcLabel(iso, unit), [unit]);
  const per = stats.interval === 'hour' ? 'per hour' : 'per day';
  return (
    <>
      <h2>Over time</h2>
      <TimeChart
        title={`Calls, errors by code and cache hits ${per}`}
        times={charts.times}
        timeLabel={timeLabel}
        series={charts.calls}
        format={formatCount}
      />
      <TimeChart
        title={`Cache-hit and error rates ${per}`}
        times={charts.times}
        timeLabel={timeLabel}
        series={charts.rates}
        format={formatShare}
      />
      <TimeChart
        title={`Latency ${per} (p50 and p95)`}
        times={charts.times}
        timeLabel={timeLabel}
        series={charts.latency}
        format={formatMs}
      />
      <TimeChart
        title={`Cost ${per}`}
        times={charts.times}
        timeLabel={timeLabel}
        series={charts.cost}
        format={formatUsd}
      />
      <TimeChart
        title={`Tokens ${per}`}
        times={charts.times}
        timeLabel={timeLabel}
        series={charts.tokens}
        format={formatCount}
      />
    </>
  );
}

function Totals({ totals }: { totals: Stats['totals'] }) {
  const codes = Object.entries(totals.errorsByCode);
  return (
    <aside className="panel stats-totals" aria-labelledby="stats-totals-title">
      <h2 id="stats-totals-title">Totals</h2>
      <dl>
        <Total term="Calls">{formatNumber(totals.calls)}</Total>
        <Total term="Errors">{formatNumber(totals.errors)}</Total>
        <Total term="Error rate">{formatRate(totals.errorRate)}</Total>
        <Total term="Cache-hit rate">{formatRate(totals.cacheHitRate)}</Total>
        <Total term="Latency p50">{formatMs(totals.latencyMs.p50)}</Total>
        <Total term="Latency p95">{formatMs(totals.latencyMs.p95)}</Total>
        <Total term="Tokens in">{formatNumber(totals.inputTokens)}</Total>
        <Total term="Tokens out">{formatNumber(totals.outputTokens)}</Total>
        <Total term="Cost">{formatCost(totals.costUsd)}</Total>
      </dl>
      <h3>Errors by code</h3>
      {codes.length === 0 ? (
        <p className="muted">No errors.</p>
      ) : (
        <table className="error-codes">
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col" className="number">
                Calls
              </th>
            </tr>
          </thead>
          <tbody>
            {codes.map(([code, count]) => (
              <tr key={code}>
                <th scope="row">
                  <code>{code}</code>
                </th>
                <td className="number">{formatNumber(count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </aside>
  );
}

function Total({ term, children }: { term: string; children: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A UTC instant as "Mar 3" (day) or "Mar 3, 14:00" (minute). */
function utcLabel(iso: string, unit: 'day' | 'minute'): string {
  return new Date(iso).toLocaleString(undefined, {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    ...(unit === 'minute' ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : {}),
  });
}
