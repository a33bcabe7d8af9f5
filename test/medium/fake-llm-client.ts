import type {
  ImageResult,
  LlmClient,
  StreamedTextResult,
  TextRequest,
  TextResult,
  TextStreamEvent,
} from '../../src/modules/llm/llm-client';

/**
 * What the fake answers to one call: text (with its parsed `object` for a structured answer, streamed in `pieces`
 * when the call streams), a thrown failure, or nothing until the call is aborted.
 */
export type FakeAnswer = { text: string; object?: unknown; pieces?: string[] } | { fail: Error } | { hang: true };

const USAGE = { inputTokens: 10, outputTokens: 5 };

/**
 * An LlmClient in memory, for tests of the execution service without a provider: each model answers from its own
 * script in order (see `answer`); a model with nothing scripted echoes the prompt, as the mock model does. Every
 * request is kept in `calls`, and `nextCall` resolves when the next one arrives.
 */
export class FakeLlmClient implements LlmClient {
  readonly calls: TextRequest[] = [];
  private readonly scripts = new Map<string, FakeAnswer[]>();
  private waiting: (() => void)[] = [];

  /** The next answers of `model`, in order. */
  answer(model: string, ...answers: FakeAnswer[]): this {
    this.scripts.set(model, [...(this.scripts.get(model) ?? []), ...answers]);
    return this;
  }

  reset(): void {
    this.calls.length = 0;
    this.scripts.clear();
  }

  /** Resolves when the next call reaches the client. */
  nextCall(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async generateText(request: TextRequest): Promise<TextResult> {
    const answer = await this.next(request);
    return { text: answer.text, object: answer.object, usage: USAGE, finishReason: 'stop' };
  }

  async streamText(request: TextRequest, onEvent: (event: TextStreamEvent) => void): Promise<StreamedTextResult> {
    const answer = await this.next(request);
    for (const text of answer.pieces ?? [answer.text]) onEvent({ type: 'delta', text });
    return { text: answer.text, object: answer.object, usage: USAGE, finishReason: 'stop' };
  }

  generateImage(): Promise<ImageResult> {
    return Promise.reject(new Error('The fake client generates no images'));
  }

  private async next(request: TextRequest): Promise<{ text: string; object?: unknown; pieces?: string[] }> {
    this.calls.push(request);
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
    const answer = this.scripts.get(request.model)?.shift() ?? { text: request.prompt };
    if ('fail' in answer) throw answer.fail;
    if ('hang' in answer) {
      const signal = request.abortSignal;
      signal.throwIfAborted();
      return new Promise((_, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    }
    return answer;
  }
}
