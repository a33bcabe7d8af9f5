/** A dataset's name: 1 to 100 characters, unique in its endpoint. */
export const MAX_DATASET_NAME_LENGTH = 100;
export const MAX_DATASET_DESCRIPTION_LENGTH = 2000;
/** An endpoint has at most this many datasets. */
export const MAX_DATASETS_PER_ENDPOINT = 100;
/** A dataset holds at most this many items (at its current version). */
export const MAX_DATASET_ITEMS = 5000;
/** One call adds at most this many items (given, or copied from logs). */
export const MAX_ITEMS_PER_CALL = 500;
/** An item's inputs, expected output and tags, as JSON text, are at most this many bytes (64 KiB). */
export const MAX_ITEM_BYTES = 64 * 1024;
/** Item pages: 20 items by default, at most 50 (as execution logs). */
export const ITEM_PAGE_SIZE = { default: 20, max: 50 } as const;

/** What an item holds. */
export interface ItemContent {
  inputs: Record<string, unknown>;
  expectedOutput: unknown;
  tags: Record<string, string>;
}

/** The size of an item as it is measured against MAX_ITEM_BYTES: the UTF-8 bytes of its JSON text. */
export function itemBytes(item: ItemContent): number {
  return Buffer.byteLength(
    JSON.stringify({ inputs: item.inputs, expectedOutput: item.expectedOutput ?? null, tags: item.tags }),
    'utf8',
  );
}

/** A `\u` escape that JSON.stringify writes and the database's JSON refuses (NUL, lone surrogates); `\\` pairs skipped. */
const UNSTORABLE_ESCAPE = /\\(\\|u0000|ud[89a-f][0-9a-f]{2})/gi;

/**
 * The part of an item (`inputs`, `expectedOutput` or `tags`) that holds a character the database cannot store in JSON
 * (NUL, or half of a UTF-16 surrogate pair), or null.
 */
export function unstorablePart(item: ItemContent): keyof ItemContent | null {
  for (const part of ['inputs', 'expectedOutput', 'tags'] as const) {
    const text = JSON.stringify(item[part] ?? null);
    for (const [, code] of text.matchAll(UNSTORABLE_ESCAPE)) if (code !== '\\') return part;
  }
  return null;
}

/** What is wrong with adding `adding` items to a dataset of `itemCount`, or null. */
export function capacityProblem(itemCount: number, adding: number): string | null {
  if (itemCount + adding <= MAX_DATASET_ITEMS) return null;
  return (
    `A dataset holds at most ${MAX_DATASET_ITEMS} items: it has ${itemCount}, so ${adding} more ` +
    `would be ${itemCount + adding}`
  );
}

/** What a log row offers to be copied into a dataset. */
export interface LoggedExecution {
  id: string;
  endpointId: string;
  status: 'success' | 'error';
  inputs: unknown;
  output: unknown;
  /** Which of the row's fields were cut to the log's size limit (`inputs`, `parsedOutput`, …). */
  truncatedFields: string[];
}

/**
 * Why a logged execution cannot be copied into a dataset of `endpointId` (null when it can): it ran on another
 * endpoint; its inputs were cut in the log (a half copy would test something nobody sent); or, when its output is
 * wanted, it failed (it has none) or its output was cut.
 */
export function logCopyProblem(log: LoggedExecution, endpointId: string, withOutput: boolean): string | null {
  if (log.endpointId !== endpointId) return `execution log ${log.id} is of another endpoint than the dataset's`;
  if (log.truncatedFields.includes('inputs') || !isPlainObject(log.inputs)) {
    return `execution log ${log.id} kept only the start of its inputs (they were over the log's size limit), so they cannot be copied`;
  }
  if (withOutput && log.status !== 'success') return `execution log ${log.id} failed, so it has no output to copy`;
  if (withOutput && log.truncatedFields.includes('parsedOutput')) {
    return `execution log ${log.id} kept only the start of its output (it was over the log's size limit), so it cannot be copied`;
  }
  return null;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
