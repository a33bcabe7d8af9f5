import { ClientClosedError, UpstreamTimeoutError } from '../../../common/errors/app-error';
import type { LlmClient, TextRequest, TextStreamEvent } from '../../llm/llm-client';
import { ExecutionStreamSink, PARTIAL_INTERVAL_MS, streamGeneration } from './execution-stream-sink';

const START = { promptId: 'p', promptVersion: 1, llmModel: 'm' };

function sinkOf(structured: boolean) {
  const sent: [string, unknown][] = [];
  const sink = new ExecutionStreamSink(
    { start: (start) => sent.push(['start', start]), send: (name, data) => sent.push([name, data]) },
    structured,
  );
  return { sink, sent };
}

describe('ExecutionStreamSink', () => {
  afterEach(() => jest.useRealTimers());

  it('sends each delta at once and skips empty ones; ttftMs is taken at the first', () => {
    jest.useFakeTimers();
    const { sink, sent } = sinkOf(false);
    expect(sink.ttftMs).toBeNull();
    jest.advanceTimersByTime(30);
    sink.piece({ type: 'delta', text: '' });
    expect(sink.ttftMs).toBeNull();
    sink.piece({ type: 'delta', text: 'a' });
    jest.advanceTimersByTime(5);
    sink.piece({ type: 'delta', text: 'b' });
    expect(sent).toEqual([
      ['delta', { text: 'a' }],
      ['delta', { text: 'b' }],
    ]);
    expect(sink.ttftMs).toBe(30);
  });

  it('sends partial objects at most one per interval, the latest one when the interval is over', () => {
    jest.useFakeTimers();
    const { sink, sent } = sinkOf(true);
    sink.piece({ type: 'partial', output: { a: '1' } });
    sink.piece({ type: 'partial', output: { a: '12' } });
    sink.piece({ type: 'partial', output: { a: '123' } });
    expect(sent).toEqual([['partial', { output: { a: '1' } }]]);
    jest.advanceTimersByTime(PARTIAL_INTERVAL_MS - 1);
    expect(sent).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(sent).toEqual([
      ['partial', { output: { a: '1' } }],
      ['partial', { output: { a: '123' } }],
    ]);
    // A partial still waiting when the answer is complete is dropped: `done` carries the whole object.
    sink.piece({ type: 'partial', output: { a: '1234' } });
    sink.stop();
    jest.advanceTimersByTime(PARTIAL_INTERVAL_MS * 2);
    expect(sent).toHaveLength(2);
  });

  it('a replayed cached answer is start and one piece, delta or partial as the endpoint answers', () => {
    const raw = sinkOf(false);
    raw.sink.replay({ ...START, cached: true }, 'text', 'text');
    expect(raw.sent).toEqual([
      ['start', { ...START, cached: true }],
      ['delta', { text: 'text' }],
    ]);
    const structured = sinkOf(true);
    structured.sink.replay({ ...START, cached: true }, '{"a":1}', { a: 1 });
    expect(structured.sent[1]).toEqual(['partial', { output: { a: 1 } }]);
  });
});

describe('streamGeneration', () => {
  const request = (signal: AbortSignal): TextRequest => ({
    model: 'm',
    prompt: 'p',
    temperature: 0,
    maxOutputTokens: 10,
    abortSignal: signal,
  });

  /** A client that streams 'a', then waits for its signal. */
  const waitingClient = (seen: AbortSignal[]): LlmClient => ({
    generateText: () => Promise.reject(new Error('unused')),
    generateImage: () => Promise.reject(new Error('unused')),
    streamText: (req: TextRequest, onEvent: (event: TextStreamEvent) => void) => {
      seen.push(req.abortSignal);
      onEvent({ type: 'delta', text: 'a' });
      return new Promise((_, reject) =>
        req.abortSignal.addEventListener('abort', () => reject(new UpstreamTimeoutError('aborted'))),
      );
    },
  });

  it('starts the stream, then a client that leaves aborts the provider call and is reported as client_closed', async () => {
    const { sink, sent } = sinkOf(false);
    const seen: AbortSignal[] = [];
    const deadline = new AbortController();
    const call = streamGeneration(waitingClient(seen), request(deadline.signal), sink, START);
    expect(sent).toEqual([
      ['start', { ...START, cached: false }],
      ['delta', { text: 'a' }],
    ]);
    sink.clientLeft();
    expect(seen[0].aborted).toBe(true);
    await expect(call).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('the deadline aborts the provider call as well, and its failure is the provider error', async () => {
    const { sink } = sinkOf(false);
    const seen: AbortSignal[] = [];
    const deadline = new AbortController();
    const call = streamGeneration(waitingClient(seen), request(deadline.signal), sink, START);
    deadline.abort();
    await expect(call).rejects.toBeInstanceOf(UpstreamTimeoutError);
  });
});
