import type { KeyEnvironment } from '../../common/auth/principal';
import type { Tags } from '../../common/tags/tags';
import type { PromptAssignment } from '../prompts/prompt-assignment';

export type ExecutionSource = 'Api' | 'TestPage' | 'Internal' | 'Eval';
export const EXECUTION_SOURCES: ExecutionSource[] = ['Api', 'TestPage', 'Internal', 'Eval'];
export { PROMPT_ASSIGNMENTS, type PromptAssignment } from '../prompts/prompt-assignment';
export type ExecutionStatus = 'success' | 'error';
export const EXECUTION_STATUSES: ExecutionStatus[] = ['success', 'error'];

/** One model call of an execution, as its log row keeps it. */
export interface LoggedAttempt {
  llmModel: string;
  latencyMs: number;
  outcome: 'success' | 'error' | 'timeout';
  /** Null on success; the provider's status when it answered with an error, else the status the failure answers. */
  httpStatus: number | null;
  errorMessage: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
}

/** One execution, as the execution module hands it to the log writer. */
/** A message of a rendered prompt as logged: its role and its text. */
export interface LoggedMessage {
  role: string;
  content: string;
}

export interface NewExecutionLog {
  tenantId: string;
  endpointId: string;
  promptId: string | null;
  promptVersion: number | null;
  /** How the prompt was assigned; null when none was selected. */
  assignment: PromptAssignment | null;
  source: ExecutionSource;
  keyId: string;
  /** null for admin keys. */
  keyEnvironment: KeyEnvironment | null;
  requestId: string;
  status: ExecutionStatus;
  httpStatus: number;
  errorCode: string | null;
  errorMessage: string | null;
  cached: boolean;
  llmModel: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  latencyMs: number;
  streamed: boolean;
  ttftMs: number | null;
  finishReason: string | null;
  inputs: unknown;
  renderedPrompt: string | null;
  /** The messages the rendered prompt made, each `{role, content}` (null or absent when it did not render). */
  renderedMessages?: LoggedMessage[] | null;
  rawResponse: string | null;
  parsedOutput: unknown;
  /** Every model call made, in order (none on a cache hit or a failure before the call). */
  attempts: LoggedAttempt[];
  /** The request's tags over its key's default tags (`{}` when none). */
  tags: Tags;
  createdAt: Date;
}
