import { randomUUID } from 'node:crypto';
import { type CappedLogField, capLogMessages, capLogText } from './log-field-cap';
import type { LoggedMessage, NewExecutionLog } from './new-execution-log';

/**
 * A log ready for the INSERT: its id chosen, its JSON values already serialised (and measured) and its large fields
 * capped at record time.
 */
export type PreparedLog = Omit<NewExecutionLog, 'inputs' | 'parsedOutput' | 'attempts' | 'renderedMessages'> & {
  id: string;
  /** Null when the prompt did not render, or made one user message of its whole text (see messagesJsonOf). */
  renderedMessagesJson: string | null;
  attemptsJson: string;
  inputsJson: string | null;
  parsedOutputJson: string | null;
  truncatedFields: string[];
  tagsJson: string;
};

// PostgreSQL text and jsonb cannot hold NUL characters.
const withoutNul = (text: string | null) => (text === null ? null : text.replaceAll('\u0000', ''));
const clip = (text: string | null, max: number) => (text === null ? null : text.slice(0, max));

/** The longest error message an attempt of the log keeps, in characters. */
const ATTEMPT_ERROR_MAX_CHARS = 2000;

/**
 * JSON text that jsonb accepts. JSON.stringify writes NUL and lone surrogates (half of a UTF-16 pair, which a JSON
 * body may carry as an escape) as `\u` escapes that jsonb refuses: NUL is dropped and a lone surrogate becomes U+FFFD.
 * Escaped backslashes are matched as pairs, so the text `\u0000` typed by a caller is kept as it is.
 */
const UNSTORABLE_ESCAPE = /\\(\\|u0000|ud[89a-f][0-9a-f]{2})/gi;

function json(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return null;
    return text.replace(UNSTORABLE_ESCAPE, (escape: string, code: string) =>
      code === '\\' ? escape : code.toLowerCase() === 'u0000' ? '' : '\\ufffd',
    );
  } catch {
    return null;
  }
}

/**
 * Copies what the row needs (nothing more stays referenced) and serialises it once, measuring its size. Each of the
 * large fields keeps at most `maxFieldBytes` bytes: the text itself for `renderedPrompt` and `rawResponse`, the JSON
 * text for `inputs` and `parsedOutput` (a longer JSON value is stored as the string of its cut JSON text). The fields
 * cut are listed in `truncatedFields`.
 */
export function toLogRow(entry: NewExecutionLog, maxFieldBytes: number): { row: PreparedLog; bytes: number } {
  const truncatedFields: CappedLogField[] = [];
  const capText = (field: CappedLogField, text: string | null): string | null => {
    if (text === null) return null;
    const capped = capLogText(text, maxFieldBytes);
    if (capped.truncated) truncatedFields.push(field);
    return capped.text;
  };
  const capJson = (field: CappedLogField, text: string | null): string | null => {
    if (text === null) return null;
    const capped = capLogText(text, maxFieldBytes);
    if (!capped.truncated) return text;
    truncatedFields.push(field);
    return JSON.stringify(capped.text);
  };
  const row: PreparedLog = {
    id: randomUUID(),
    tenantId: entry.tenantId,
    endpointId: entry.endpointId,
    promptId: entry.promptId,
    promptVersion: entry.promptVersion,
    assignment: entry.assignment,
    source: entry.source,
    keyId: entry.keyId,
    keyEnvironment: entry.keyEnvironment,
    requestId: clip(entry.requestId, 128) ?? '',
    status: entry.status,
    httpStatus: entry.httpStatus,
    errorCode: clip(entry.errorCode, 64),
    errorMessage: withoutNul(entry.errorMessage),
    cached: entry.cached,
    llmModel: clip(entry.llmModel, 200),
    inputTokens: entry.inputTokens,
    outputTokens: entry.outputTokens,
    costUsd: entry.costUsd,
    latencyMs: Math.max(0, Math.round(entry.latencyMs)),
    streamed: entry.streamed,
    ttftMs: entry.ttftMs === null ? null : Math.max(0, Math.round(entry.ttftMs)),
    finishReason: clip(entry.finishReason, 32),
    inputsJson: capJson('inputs', json(entry.inputs)),
    renderedPrompt: capText('renderedPrompt', withoutNul(entry.renderedPrompt)),
    renderedMessagesJson: messagesJsonOf(entry, maxFieldBytes, truncatedFields),
    rawResponse: capText('rawResponse', withoutNul(entry.rawResponse)),
    parsedOutputJson: capJson('parsedOutput', json(entry.parsedOutput)),
    truncatedFields,
    // At most 16 entries (4 models, each tried up to 4 times), each of bounded size: its error message is cut.
    attemptsJson:
      json(
        entry.attempts.map((attempt) => ({
          ...attempt,
          llmModel: clip(attempt.llmModel, 200),
          errorMessage: clip(withoutNul(attempt.errorMessage), ATTEMPT_ERROR_MAX_CHARS),
        })),
      ) ?? '[]',
    // Checked when they were given (keys, lengths, no NUL): stored as they are.
    tags: entry.tags,
    tagsJson: JSON.stringify(entry.tags),
    createdAt: entry.createdAt ?? new Date(),
  };
  const bytes =
    512 +
    (row.inputsJson?.length ?? 0) +
    (row.parsedOutputJson?.length ?? 0) +
    (row.renderedPrompt?.length ?? 0) +
    (row.renderedMessagesJson?.length ?? 0) +
    (row.rawResponse?.length ?? 0) +
    (row.errorMessage?.length ?? 0) +
    row.attemptsJson.length +
    row.tagsJson.length;
  return { row, bytes };
}

/**
 * The rendered messages as stored: nothing when the prompt made one user message of its whole text (the row's
 * renderedPrompt says it all, and reads back as that message), else their JSON with the texts capped together at
 * `maxFieldBytes` (see capLogMessages).
 */
function messagesJsonOf(
  entry: NewExecutionLog,
  maxFieldBytes: number,
  truncatedFields: CappedLogField[],
): string | null {
  const messages = entry.renderedMessages;
  if (!messages) return null;
  const [first] = messages;
  if (messages.length === 1 && first.role === 'user' && first.content === entry.renderedPrompt) return null;
  const capped = capLogMessages(
    messages.map(({ role, content }): LoggedMessage => ({ role, content: withoutNul(content)! })),
    maxFieldBytes,
  );
  if (capped.truncated) truncatedFields.push('renderedMessages');
  return json(capped.messages);
}
