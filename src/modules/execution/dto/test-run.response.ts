import { ApiProperty } from '@nestjs/swagger';
import type { NewExecutionLog } from '../../logs/new-execution-log';
import { RenderedMessageResponse, toRenderedMessagesResponse } from '../../logs/dto/rendered-message.response';

// Every property carries @ApiProperty so the document lists them in this order (undecorated ones would come last).

/** Tokens of the model call, as the execution log row records them: null when the provider reported none. */
export class TestRunUsageResponse {
  @ApiProperty({ type: 'integer', nullable: true, minimum: 0 })
  inputTokens: number | null;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 0 })
  outputTokens: number | null;
}

/** A test run: what the endpoint answered, what it took, and the execution log row that records it. */
export class TestRunResponse {
  // Any JSON value. @nestjs/swagger writes `type: object` for a property without a type (its design type is Object)
  // and drops only a declared combinator's `type`: `anyOf: [{}]` is the empty schema, which allows every value.
  @ApiProperty({
    description:
      'What the execution API answers for these inputs with this prompt, any JSON value: the text for an endpoint ' +
      'without output fields, the object of its output fields otherwise, `{generatedImages, usage}` for an image endpoint.',
    anyOf: [{}],
  })
  output: unknown;

  /** The prompt text sent to the model: the prompt's template rendered with the inputs, as one text. */
  @ApiProperty()
  renderedPrompt: string;

  /**
   * The messages sent, in order: one per message block that rendered text, or the whole text as one user message for
   * a template without blocks. An image input output by the template shows as `[image <field>]`.
   */
  @ApiProperty({ type: [RenderedMessageResponse] })
  renderedMessages: RenderedMessageResponse[];

  /** The prompt that ran (any status, Draft included); null when the run was of unsaved text. */
  @ApiProperty({ format: 'uuid', type: 'string', nullable: true })
  promptId: string | null;

  /** The number of the prompt's version that ran; null when the run was of unsaved text. */
  @ApiProperty({ type: 'integer', minimum: 1, nullable: true })
  promptVersion: number | null;

  /** Whether the run was of unsaved text (`prompt` in the request) rather than a saved prompt (`promptId`). */
  @ApiProperty()
  unsaved: boolean;

  /** The model that answered: the version's own, or one of its fallback models when the run failed over to it. */
  @ApiProperty()
  llmModel: string;

  @ApiProperty()
  usage: TestRunUsageResponse;

  /** USD, from the model catalog's prices; null when a price the call needs is unknown. */
  @ApiProperty({ type: 'number', nullable: true, minimum: 0 })
  costUsd: number | null;

  /** Milliseconds from the request's start to the answer, as logged. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  latencyMs: number;

  /** The execution log row of this run (source TestPage), found at once by GET /admin/v1/logs/{id}. */
  @ApiProperty({ format: 'uuid' })
  logId: string;
}

/**
 * A successful test run's answer: its execution body and what its log row records. A run that succeeded has rendered
 * its prompt, so those fields of its row are set; only an unsaved prompt is logged without a prompt id.
 */
export function toTestRunResponse(output: unknown, log: NewExecutionLog, logId: string): TestRunResponse {
  return {
    output,
    renderedPrompt: log.renderedPrompt!,
    renderedMessages: toRenderedMessagesResponse(log.renderedMessages, log.renderedPrompt)!,
    promptId: log.promptId,
    promptVersion: log.promptVersion,
    unsaved: log.promptId === null,
    llmModel: log.llmModel!,
    usage: { inputTokens: log.inputTokens, outputTokens: log.outputTokens },
    costUsd: log.costUsd,
    latencyMs: log.latencyMs,
    logId,
  };
}
