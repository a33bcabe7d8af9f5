import { ApiError } from '../../../api/client';
import { messageOf } from '../../../ui/controls';
import type { KeptDraft } from '../../prompts/kept-draft';
import { contentOf, draftProblems } from '../../prompts/prompt-draft';
import { FailedTestRun, streamTestRun, type TestRun, type UnsavedPrompt } from '../test-run';
import type { CellAnswer, CellPiece, CellState, GridTarget } from './grid-model';

/**
 * Runs one cell as a streamed test run: its pieces while the answer comes (the text so far, or the object so far),
 * then its answer or its failure (never a rejection). A run stopped by `signal` answers null: the cell did not run to
 * its end.
 */
export async function runCell(
  endpointId: string,
  target: GridTarget,
  inputs: Record<string, unknown>,
  onPiece: (piece: CellPiece) => void,
  signal: AbortSignal,
): Promise<CellState | null> {
  try {
    const run = await streamTestRun(endpointId, target, inputs, onPiece, signal);
    return { status: 'answered', ...answerOf(run) };
  } catch (error) {
    return signal.aborted ? null : failureOf(error);
  }
}

function answerOf(run: TestRun): CellAnswer {
  return {
    output: run.output,
    costUsd: run.costUsd,
    latencyMs: run.latencyMs,
    logId: run.logId,
    llmModel: run.llmModel,
    promptVersion: run.promptVersion,
  };
}

function failureOf(error: unknown): CellState {
  return {
    status: 'failed',
    messages: error instanceof ApiError ? error.messages : [messageOf(error)],
    logId: error instanceof FailedTestRun ? error.logId : null,
  };
}

/** The editor's kept changes as a test run of unsaved text takes them, or the first reason they cannot run. */
export function unsavedOfKept(kept: KeptDraft): { prompt: UnsavedPrompt } | { problem: string } {
  // The name is not sent with unsaved text, so an empty one does not stop the run.
  const { name: _name, ...problems } = draftProblems(kept.draft);
  const problem = Object.values(problems)[0];
  if (problem) return { problem };
  const { name: _unused, ...content } = contentOf(kept.draft);
  return { prompt: content };
}
