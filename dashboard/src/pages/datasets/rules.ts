// Datasets on the dashboard, free of React: JSONL imports read line by line and cut into batches, the service's
// messages about items turned into messages about lines, and the checks editor's drafts (every value as typed) with
// the body they become and the service's messages put back at their fields.
import { bounds } from '../../api/bounds';
import type { Schemas } from '../../api/client';

export type Dataset = Schemas['DatasetResponse'];
export type DatasetItem = Schemas['DatasetItemResponse'];
export type DatasetCheck = Schemas['DatasetCheckSchema'];
export type CheckType = DatasetCheck['type'];

export const MAX_NAME_LENGTH = bounds.CreateDatasetDto.name.maxLength;
export const MAX_DESCRIPTION_LENGTH = bounds.CreateDatasetDto.description.maxLength;
export const MAX_CHECKS = bounds.CreateDatasetDto.checks.maxItems;
/** One call adds at most this many items: an import is sent in batches of this size. */
export const BATCH_SIZE = bounds.AddDatasetItemsDto.items.maxItems;

/** An item as the API takes it. */
export interface ItemBody {
  inputs: Record<string, unknown>;
  expectedOutput?: unknown;
  tags?: Record<string, string>;
}

/** One item read from a JSONL text, with the line (from 1) it was on. */
export interface ImportLine {
  line: number;
  item: ItemBody;
}

/** A problem of one line of an import. */
export interface LineProblem {
  line: number;
  message: string;
}

const ITEM_PROPERTIES = new Set(['inputs', 'expectedOutput', 'tags']);

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a JSONL text: one `{inputs, expectedOutput?, tags?}` object per line, blank lines skipped (they keep their
 * number, so a line named in a message is the line of the text). A line that is not JSON, not an object, has no
 * `inputs` object or holds another property is a problem of that line; the rest (the inputs against the endpoint's
 * fields, the tags' rules, an item's size) is the service's to say.
 */
export function parseJsonl(text: string): { lines: ImportLine[]; problems: LineProblem[] } {
  const lines: ImportLine[] = [];
  const problems: LineProblem[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      problems.push({ line, message: `not valid JSON (${(error as Error).message})` });
      return;
    }
    if (!isRecord(parsed)) return problems.push({ line, message: 'must be a JSON object with inputs' });
    if (!isRecord(parsed.inputs)) return problems.push({ line, message: 'inputs must be an object' });
    const other = Object.keys(parsed).find((name) => !ITEM_PROPERTIES.has(name));
    if (other !== undefined)
      return problems.push({ line, message: `${other} is not a property of an item (inputs, expectedOutput, tags)` });
    const item: ItemBody = { inputs: parsed.inputs };
    if (parsed.expectedOutput !== undefined) item.expectedOutput = parsed.expectedOutput;
    if (parsed.tags !== undefined) item.tags = parsed.tags as Record<string, string>;
    lines.push({ line, item });
  });
  return { lines, problems };
}

/** The lines cut into batches of at most `size`, in order. */
export function batchesOf<T>(lines: T[], size = BATCH_SIZE): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < lines.length; start += size) batches.push(lines.slice(start, start + size));
  return batches;
}

/**
 * The service's messages about a batch of items, each naming the line its item came from: `items.3.inputs.text: …`
 * becomes `Line 12: inputs.text: …`, `property items.3.weight should not exist` becomes `Line 12: property weight
 * should not exist`. A message that names no item (the dataset is full) is kept as it is, with line 0.
 */
export function lineProblemsOf(messages: string[], batch: ImportLine[]): LineProblem[] {
  return messages.map((message) => {
    const match = /\bitems\.(\d+)(\.)?/.exec(message);
    const at = match ? batch[Number(match[1])] : undefined;
    if (!match || !at) return { line: 0, message };
    const rest = message.replace(match[0], match[2] ? '' : 'the item').replace(/^the item: /, '');
    return { line: at.line, message: rest };
  });
}

/** A line problem as one sentence. */
export function describeLineProblem(problem: LineProblem): string {
  return problem.line === 0 ? problem.message : `Line ${problem.line}: ${problem.message}`;
}

/** A compact one-line view of a JSON value for a table cell (at most `max` characters). */
export function jsonPreview(value: unknown, max = 160): string {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The expected output typed in its box: empty is none (null), anything else must be JSON (a string in quotes). */
export function expectedOutputOf(text: string): { value: unknown } | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: null };
  try {
    return { value: JSON.parse(trimmed) };
  } catch (error) {
    return { problem: `The expected output is not valid JSON: ${(error as Error).message}` };
  }
}

/** Tags typed as `key=value` (or `key: value`), one per line or comma-separated. */
export function tagsOf(text: string): { tags: Record<string, string> } | { problem: string } {
  const tags: Record<string, string> = {};
  for (const part of text.split(/[\n,]/)) {
    const trimmed = part.trim();
    if (trimmed === '') continue;
    const match = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(trimmed);
    if (!match) return { problem: `“${trimmed}” is not a tag: write key=value.` };
    tags[match[1]] = match[2];
  }
  return { tags };
}

export const CHECK_TYPES: { value: CheckType; label: string; hint: string }[] = [
  { value: 'schema', label: 'Matches the output fields', hint: "The output matches the endpoint's output fields." },
  { value: 'equals', label: 'Equals the expected output', hint: "The output equals the item's expected output." },
  {
    value: 'field_equals',
    label: 'A field equals the expected one',
    hint: 'The field at the path (dot-separated, such as answer.city) equals the same field of the expected output.',
  },
  { value: 'contains', label: 'Contains a text', hint: "The output's JSON text holds the text." },
  { value: 'not_contains', label: 'Does not contain a text', hint: "The output's JSON text does not hold the text." },
  { value: 'regex', label: 'Matches a regular expression', hint: "The output's JSON text matches the pattern." },
  { value: 'max_latency_ms', label: 'Latency at most', hint: 'The call took at most this many milliseconds.' },
  { value: 'max_cost_usd', label: 'Cost at most', hint: 'The call cost at most this many US dollars.' },
  {
    value: 'judge',
    label: 'Judged by a model',
    hint: 'A model reads the rubric (Liquid over inputs, output and expected) and scores the output from 0 to 1.',
  },
];

export const checkTypeLabel = (type: CheckType): string =>
  CHECK_TYPES.find((option) => option.value === type)?.label ?? type;

/** A check as the editor holds it: every parameter as typed, whatever the type (a change of type keeps them). */
export interface CheckDraft {
  /** A key for the list, stable while checks are added and removed. */
  key: number;
  type: CheckType;
  path: string;
  value: string;
  caseSensitive: boolean;
  pattern: string;
  llmModel: string;
  rubric: string;
  threshold: string;
}

export type CheckParameter =
  'type' | 'path' | 'value' | 'caseSensitive' | 'pattern' | 'llmModel' | 'rubric' | 'threshold';

let nextKey = 1;

/** A new check of `type`, or an existing one's draft. */
export function checkDraftOf(check: Partial<DatasetCheck> & { type: CheckType }): CheckDraft {
  return {
    key: nextKey++,
    type: check.type,
    path: check.path ?? '',
    value: check.value === undefined ? '' : String(check.value),
    caseSensitive: check.caseSensitive ?? true,
    pattern: check.pattern ?? '',
    llmModel: check.llmModel ?? '',
    rubric: check.rubric ?? '',
    threshold: check.threshold === undefined ? '0.5' : String(check.threshold),
  };
}

/** A number typed as text, or the text itself when it is not one (the service then says what it must be). */
function numberOrText(text: string): number | string {
  const trimmed = text.trim();
  const number = Number(trimmed);
  return trimmed !== '' && Number.isFinite(number) ? number : trimmed;
}

/**
 * The check the API takes: its type and that type's parameters only (the service refuses any other). Numbers typed
 * are sent as numbers; anything else as typed, for the service to explain at its field.
 */
export function checkBodyOf(draft: CheckDraft): DatasetCheck {
  const body = (() => {
    switch (draft.type) {
      case 'schema':
      case 'equals':
        return { type: draft.type };
      case 'field_equals':
        return { type: draft.type, path: draft.path.trim() };
      case 'contains':
      case 'not_contains':
        return { type: draft.type, value: draft.value, caseSensitive: draft.caseSensitive };
      case 'regex':
        return { type: draft.type, pattern: draft.pattern };
      case 'max_latency_ms':
      case 'max_cost_usd':
        return { type: draft.type, value: numberOrText(draft.value) };
      case 'judge':
        return {
          type: draft.type,
          llmModel: draft.llmModel,
          rubric: draft.rubric,
          threshold: numberOrText(draft.threshold),
        };
    }
  })();
  // A number half typed goes as text, which the generated type does not allow: the service names it at its field.
  return body as unknown as DatasetCheck;
}

/** The service's messages about checks: by check and parameter (`checks.2.pattern …`), and the others. */
export function checkProblemsOf(messages: string[]): {
  byCheck: Record<number, Partial<Record<CheckParameter | 'check', string>>>;
  others: string[];
} {
  const byCheck: Record<number, Partial<Record<CheckParameter | 'check', string>>> = {};
  const others: string[] = [];
  for (const message of messages) {
    const match = /^checks\.(\d+)(?:\.(\w+))?[\s:]/.exec(message);
    if (!match) {
      others.push(message);
      continue;
    }
    const index = Number(match[1]);
    const field = (match[2] ?? 'check') as CheckParameter | 'check';
    const problems = (byCheck[index] ??= {});
    problems[field] = problems[field] ? `${problems[field]} ${message}` : message;
  }
  return { byCheck, others };
}

/** The service's messages about one item added by hand, put at the form's fields: an input's, the tags', or none. */
export function itemProblemsOf(messages: string[]): {
  inputs: Record<string, string>;
  tags?: string;
  others: string[];
} {
  const inputs: Record<string, string> = {};
  let tags: string | undefined;
  const others: string[] = [];
  for (const message of messages) {
    const input = /^items\.0\.inputs\.([^\s:]+):\s*(.*)$/.exec(message);
    if (input) inputs[input[1]] = input[2];
    else if (/^items\.0\.tags\b/.test(message)) tags = message.replace(/^items\.0\./, '');
    else others.push(message.replace(/\bitems\.0\.?/, (found) => (found.endsWith('.') ? '' : 'The item')));
  }
  return { inputs, tags, others };
}
