import type { PreparedLog } from '../../src/modules/logs/log-row';
import type { NewExecutionLog } from '../../src/modules/logs/new-execution-log';

/** The columns a successful test-page call with no prompt, no cache and no stream has in both shapes of a log row. */
const PLAIN_CALL = {
  promptId: null,
  promptVersion: null,
  assignment: null,
  source: 'TestPage',
  keyId: 'k',
  keyEnvironment: null,
  requestId: 'r',
  status: 'success',
  httpStatus: 200,
  errorCode: null,
  errorMessage: null,
  cached: false,
  llmModel: null,
  streamed: false,
  ttftMs: null,
  finishReason: null,
  renderedPrompt: null,
  rawResponse: null,
} as const satisfies Partial<NewExecutionLog>;

/** An execution as the log writer receives it, with nothing recorded; unit specs override what they check. */
export function newLogEntry(values: Partial<NewExecutionLog> = {}): NewExecutionLog {
  return {
    ...PLAIN_CALL,
    tenantId: 't',
    endpointId: 'e',
    inputTokens: null,
    outputTokens: null,
    costUsd: null,
    latencyMs: 1,
    inputs: {},
    parsedOutput: null,
    attempts: [],
    tags: {},
    createdAt: new Date('2026-01-01T00:00:00Z'),
    ...values,
  };
}

/** A log row ready for the batch insert, with usage counted; unit specs override what they check. */
export function preparedLog(values: Partial<PreparedLog> = {}): PreparedLog {
  return {
    ...PLAIN_CALL,
    id: 'id-1',
    tenantId: '11111111-1111-1111-1111-111111111111',
    endpointId: '22222222-2222-2222-2222-222222222222',
    inputTokens: 3,
    outputTokens: 4,
    costUsd: 0.5,
    latencyMs: 10,
    inputsJson: '{}',
    renderedMessagesJson: null,
    parsedOutputJson: null,
    attemptsJson: '[]',
    tags: {},
    tagsJson: '{}',
    truncatedFields: [],
    createdAt: new Date('2026-01-01T10:30:00Z'),
    ...values,
  };
}
