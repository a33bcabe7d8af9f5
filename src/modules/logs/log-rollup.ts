import { bucketOf } from './latency-histogram';

/** The prompt key of executions that ran no prompt (rollup keys cannot be null). */
export const NO_PROMPT = '00000000-0000-0000-0000-000000000000';

export type RollupSpan = 'hour' | 'day';

const SPAN_MS: Record<RollupSpan, number> = { hour: 3_600_000, day: 86_400_000 };

/** What a rollup needs of a log row. */
export interface RollupSource {
  tenantId: string;
  endpointId: string;
  promptId: string | null;
  status: 'success' | 'error';
  errorCode: string | null;
  cached: boolean;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  latencyMs: number;
  createdAt: Date;
  /** The row's tags: it is summed once under each (none: only in the plain rollups). */
  tags?: Readonly<Record<string, string>>;
}

/** What the rollups add up for a set of executions (the rollup rows, and what the stats read back from them). */
export interface RollupSums {
  calls: number;
  errors: number;
  cacheHits: number;
  inputTokens: number;
  outputTokens: number;
  /** In billionths of a dollar: the sum of each cost as numeric(18, 9) stores it. */
  costNanos: bigint;
}

export function emptySums(): RollupSums {
  return { calls: 0, errors: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0, costNanos: 0n };
}

/** The sums of one tenant's, endpoint's and prompt's executions in one UTC hour or day. */
export interface RollupGroup extends RollupSums {
  tenantId: string;
  endpointId: string;
  promptId: string;
  span: RollupSpan;
  start: Date;
  latencyMaxMs: number;
  /** Executions per latency-histogram bucket, by bucket index: only the buckets that have any (most have none). */
  latencyCounts: Record<number, number>;
  /** Errors per code ('unknown' when the error had none). */
  errorCodes: Map<string, number>;
}

const SPANS: readonly RollupSpan[] = ['hour', 'day'];

/** What a row adds to each group it counts in, worked out once however many groups that is. */
interface RowFigures {
  row: RollupSource;
  costNanos: bigint;
  latencyBucket: number;
  hourStart: number;
  dayStart: number;
}

function figuresOf(row: RollupSource): RowFigures {
  const time = row.createdAt.getTime();
  return {
    row,
    costNanos: row.costUsd === null ? 0n : costNanos(row.costUsd),
    latencyBucket: bucketOf(row.latencyMs),
    hourStart: Math.floor(time / SPAN_MS.hour) * SPAN_MS.hour,
    dayStart: Math.floor(time / SPAN_MS.day) * SPAN_MS.day,
  };
}

function newGroup(
  row: { tenantId: string; endpointId: string },
  promptId: string,
  span: RollupSpan,
  start: number,
): RollupGroup {
  return {
    tenantId: row.tenantId,
    endpointId: row.endpointId,
    promptId,
    span,
    start: new Date(start),
    ...emptySums(),
    latencyMaxMs: 0,
    latencyCounts: {},
    errorCodes: new Map(),
  };
}

function add(group: RollupGroup, figures: RowFigures): void {
  const { row } = figures;
  group.calls++;
  if (row.status === 'error') {
    group.errors++;
    const code = row.errorCode ?? 'unknown';
    group.errorCodes.set(code, (group.errorCodes.get(code) ?? 0) + 1);
  }
  if (row.cached) group.cacheHits++;
  group.inputTokens += row.inputTokens ?? 0;
  group.outputTokens += row.outputTokens ?? 0;
  group.costNanos += figures.costNanos;
  if (row.latencyMs > group.latencyMaxMs) group.latencyMaxMs = row.latencyMs;
  group.latencyCounts[figures.latencyBucket] = (group.latencyCounts[figures.latencyBucket] ?? 0) + 1;
}

/**
 * Sums a batch of log rows into hourly and daily groups, ordered by key (tenant, span, start, endpoint, prompt), the
 * order concurrent writers update them in so that none waits for another in a cycle.
 */
export function rollUp(rows: RollupSource[]): RollupGroup[] {
  return rollUpFigures(rows.map(figuresOf));
}

/** A batch's tagged rows with their figures (see rollUpBatch), to be added to a window's tag sums. */
export type TaggedRows = readonly RowFigures[];

/**
 * A batch's plain groups, and its tagged rows with their figures for the tag sums (see TagSums), each row's figures
 * worked out once for both.
 */
export function rollUpBatch(rows: RollupSource[]): { groups: RollupGroup[]; tagged: TaggedRows } {
  const figures = rows.map(figuresOf);
  return { groups: rollUpFigures(figures), tagged: figures.filter((row) => hasTags(row.row)) };
}

function hasTags(row: RollupSource): boolean {
  for (const _ in row.tags) return true;
  return false;
}

function rollUpFigures(rows: RowFigures[]): RollupGroup[] {
  const groups = new Map<string, RollupGroup>();
  for (const figures of rows) {
    const { row } = figures;
    const promptId = row.promptId ?? NO_PROMPT;
    for (const span of SPANS) {
      const start = span === 'hour' ? figures.hourStart : figures.dayStart;
      const key = `${row.tenantId}|${span}|${start}|${row.endpointId}|${promptId}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = newGroup(row, promptId, span, start)));
      add(group, figures);
    }
  }
  return [...groups.values()].sort(compareKeys);
}

/** The sums of one tag key and value's executions (per tenant, endpoint and UTC hour or day, not per prompt). */
export interface TagRollupGroup extends RollupGroup {
  tagKey: string;
  tagValue: string;
}

/** One tenant's and endpoint's tag groups of one UTC hour or day, by tag key and then value. */
interface TagSlot {
  tenantId: string;
  endpointId: string;
  span: RollupSpan;
  start: number;
  byKey: Map<string, Map<string, TagRollupGroup>>;
}

/**
 * Sums log rows per tag (a row with three tags counts once under each), not split by prompt (a tag's values can be
 * many, and its rollups stay fewer), ordered by the tag rollups' key (tenant, tag key, span, start, tag value,
 * endpoint) for the same reason as rollUp.
 */
export function rollUpTags(rows: RollupSource[]): TagRollupGroup[] {
  const sums = new TagSums();
  sums.add(rows.filter(hasTags).map(figuresOf));
  return sums.groups();
}

/**
 * The tag groups of rows added over time (a window's: see TagSumWindows). Groups are found by their tenant, endpoint,
 * span and start first, then by tag key and value (no key text is built per tag); consecutive rows mostly share the
 * first four, so the last row's slots are reused while they do.
 */
export class TagSums {
  private readonly slots = new Map<string, TagSlot>();
  private readonly list: TagRollupGroup[] = [];
  /** The last row's slots (its hour names its day too). */
  private last: { hour: TagSlot; day: TagSlot } | undefined;

  /** How many groups the sums hold. */
  get size(): number {
    return this.list.length;
  }

  add(rows: TaggedRows): void {
    for (const figures of rows) {
      const { row } = figures;
      const tags = row.tags;
      for (const tagKey in tags) {
        let last = this.last;
        if (
          !last ||
          last.hour.start !== figures.hourStart ||
          last.hour.tenantId !== row.tenantId ||
          last.hour.endpointId !== row.endpointId
        ) {
          last = this.last = {
            hour: this.slotOf(row, 'hour', figures.hourStart),
            day: this.slotOf(row, 'day', figures.dayStart),
          };
        }
        add(this.groupIn(last.hour, tagKey, tags[tagKey]), figures);
        add(this.groupIn(last.day, tagKey, tags[tagKey]), figures);
      }
    }
  }

  /** The groups in the tag rollups' key order. */
  groups(): TagRollupGroup[] {
    return [...this.list].sort(
      (a, b) =>
        compare(a.tenantId, b.tenantId) ||
        compare(a.tagKey, b.tagKey) ||
        compare(a.span, b.span) ||
        a.start.getTime() - b.start.getTime() ||
        compare(a.tagValue, b.tagValue) ||
        compare(a.endpointId, b.endpointId),
    );
  }

  private slotOf(row: RollupSource, span: RollupSpan, start: number): TagSlot {
    const key = `${row.tenantId}|${row.endpointId}|${span}|${start}`;
    let slot = this.slots.get(key);
    if (!slot) {
      const { tenantId, endpointId } = row;
      this.slots.set(key, (slot = { tenantId, endpointId, span, start, byKey: new Map() }));
    }
    return slot;
  }

  private groupIn(slot: TagSlot, tagKey: string, tagValue: string): TagRollupGroup {
    let values = slot.byKey.get(tagKey);
    if (!values) slot.byKey.set(tagKey, (values = new Map<string, TagRollupGroup>()));
    let group = values.get(tagValue);
    if (!group) {
      values.set(tagValue, (group = { ...newGroup(slot, NO_PROMPT, slot.span, slot.start), tagKey, tagValue }));
      this.list.push(group);
    }
    return group;
  }
}

/**
 * The tag groups summed over their endpoints, for the tenant-wide tag rollups (errors per code are not kept there), in
 * their key order (tenant, tag key, span, start, tag value). rollUpTags orders a value's groups of an hour or day next to
 * each other (the endpoint last), so adjacent groups are merged.
 */
export function acrossEndpoints(groups: TagRollupGroup[]): TagRollupGroup[] {
  const merged: TagRollupGroup[] = [];
  for (const group of groups) {
    const last = merged[merged.length - 1];
    if (
      last &&
      last.tenantId === group.tenantId &&
      last.tagKey === group.tagKey &&
      last.span === group.span &&
      last.start.getTime() === group.start.getTime() &&
      last.tagValue === group.tagValue
    ) {
      last.calls += group.calls;
      last.errors += group.errors;
      last.cacheHits += group.cacheHits;
      last.inputTokens += group.inputTokens;
      last.outputTokens += group.outputTokens;
      last.costNanos += group.costNanos;
      if (group.latencyMaxMs > last.latencyMaxMs) last.latencyMaxMs = group.latencyMaxMs;
      for (const bucket in group.latencyCounts)
        last.latencyCounts[bucket] = (last.latencyCounts[bucket] ?? 0) + group.latencyCounts[bucket];
    } else merged.push({ ...group, latencyCounts: { ...group.latencyCounts }, errorCodes: new Map() });
  }
  return merged;
}

function compareKeys(a: RollupGroup, b: RollupGroup): number {
  return (
    compare(a.tenantId, b.tenantId) ||
    compare(a.span, b.span) ||
    a.start.getTime() - b.start.getTime() ||
    compare(a.endpointId, b.endpointId) ||
    compare(a.promptId, b.promptId)
  );
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A cost in billionths of a dollar, rounded as PostgreSQL rounds the number's text to numeric(18, 9) (half away from
 * zero), so rollup sums equal the sums of the stored costs exactly.
 */
export function costNanos(value: number): bigint {
  if (!Number.isFinite(value)) return 0n;
  const [mantissa, exponentText] = String(Math.abs(value)).toLowerCase().split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  const digits = BigInt(whole + fraction);
  const shift = Number(exponentText ?? 0) - fraction.length + 9;
  let nanos: bigint;
  if (shift >= 0) nanos = digits * 10n ** BigInt(shift);
  else {
    const divisor = 10n ** BigInt(-shift);
    nanos = digits / divisor;
    if ((digits % divisor) * 2n >= divisor) nanos++;
  }
  return value < 0 ? -nanos : nanos;
}

/** Billionths of a dollar as numeric text (`12.000000345`). */
export function nanosText(nanos: bigint): string {
  const sign = nanos < 0n ? '-' : '';
  const magnitude = nanos < 0n ? -nanos : nanos;
  return `${sign}${magnitude / 1_000_000_000n}.${(magnitude % 1_000_000_000n).toString().padStart(9, '0')}`;
}

/** Numeric text (as the driver answers a sum of costs) in billionths of a dollar; the text has at most 9 decimals. */
export function nanosOf(text: string | number): bigint {
  const value = String(text);
  const negative = value.startsWith('-');
  const [whole, fraction = ''] = (negative ? value.slice(1) : value).split('.');
  const nanos = BigInt(whole || '0') * 1_000_000_000n + BigInt((fraction + '000000000').slice(0, 9));
  return negative ? -nanos : nanos;
}
