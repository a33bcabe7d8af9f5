import { ClientClosedError, UpstreamTimeoutError } from '../../../common/errors/app-error';
import type { LlmClient, TextRequest, TextStreamEvent } from '../../llm/llm-client';
import { ExecutionStreamSink, PARTIAL_INTERVAL_MS, streamGeneration } from './execution-stream-sink';

const START = { promptId: 'p', promptVersion: 1, llmModel: 'm' };
const PROMPT = { id: 'p', version: 1, slug: 'main' };

function sinkOf(structured: boolean) {
  const sent: [string, unknown][] = [];
  const sink = new ExecutionStreamSink(
    {
      open: (opening) => sent.push(['open', opening]),
      start: (start) => sent.push(['start', start]),
      send: (name, data) => sent.push([name, data]),
    },
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

  it('a piece read after the interval, before its timer ran, flushes once: the timer sends nothing after it', () => {
    jest.useFakeTimers();
    // The clock the sink reads, moved by hand: a busy loop reads pieces after a timer's time, before the timer runs.
    let nowMs = 0;
    jest.spyOn(performance, 'now').mockImplementation(() => nowMs);
    const { sink, sent } = sinkOf(true);
    sink.piece({ type: 'delta', text: '{"a":"x' });
    nowMs = 10;
    jest.advanceTimersByTime(10);
    sink.piece({ type: 'delta', text: 'y' });
    // Due at 50; read at 55, before that timer ran: sent at once.
    nowMs = 55;
    sink.piece({ type: 'delta', text: 'z' });
    nowMs = 56;
    sink.piece({ type: 'delta', text: 'w' });
    expect(sent).toEqual([
      ['partial', { output: { a: 'x' } }],
      ['partial', { output: { a: 'xyz' } }],
    ]);
    // The timer set for 50 sends nothing; the next partial is due at 105.
    jest.advanceTimersByTime(40);
    expect(sent).toHaveLength(2);
    nowMs = 105;
    jest.advanceTimersByTime(49);
    expect(sent.at(-1)).toEqual(['partial', { output: { a: 'xyzw' } }]);
    expect(sent).toHaveLength(3);
  });

  it('reads the JSON text of a structured answer and builds the object only when a partial is due', () => {
    jest.useFakeTimers();
    const { sink, sent } = sinkOf(true);
    // Text that is not an object yet sends nothing, and the object is not built again before the interval is over.
    sink.piece({ type: 'delta', text: '\n  ' });
    sink.piece({ type: 'delta', text: '{"a":"x' });
    for (const piece of 'yz'.split('')) sink.piece({ type: 'delta', text: piece });
    jest.advanceTimersByTime(PARTIAL_INTERVAL_MS);
    expect(sent).toEqual([['partial', { output: { a: 'xyz' } }]]);
    // A piece that adds nothing to the object sends nothing; the next one that does, once the interval is over.
    sink.piece({ type: 'delta', text: '\\' });
    jest.advanceTimersByTime(PARTIAL_INTERVAL_MS);
    expect(sent).toHaveLength(1);
    sink.piece({ type: 'delta', text: 'n", "b": [1, 2' });
    jest.advanceTimersByTime(PARTIAL_INTERVAL_MS);
    expect(sent).toEqual([
      ['partial', { output: { a: 'xyz' } }],
      ['partial', { output: { a: 'xyz\n', b: [1, 2] } }],
    ]);
    // What is still unsent when the answer is complete is dropped: `done` carries the whole object.
    sink.piece({ type: 'delta', text: ']}' });
    sink.stop();
    jest.advanceTimersByTime(PARTIAL_INTERVAL_MS * 2);
    expect(sent).toHaveLength(2);
    expect(sink.ttftMs).not.toBeNull();
  });

  it('never sends a partial object nested deeper than an answer may be', () => {
    jest.useFakeTimers();
    const { sink, sent } = sinkOf(true);
    sink.piece({ type: 'delta', text: '{"a":' + '['.repeat(70) });
    jest.advanceTimersByTime(PARTIAL_INTERVAL_MS);
    expect(sent).toEqual([]);
    expect(sink.hasContent).toBe(false);
  });

  it('reads each attempt of a structured answer from its own beginning', () => {
    jest.useFakeTimers();
    const { sink, sent } = sinkOf(true);
    sink.selected(PROMPT, null);
    sink.attempt('first');
    sink.piece({ type: 'delta', text: 'not json, then the attempt failed' });
    sink.stop();
    sink.attempt('fallback');
    sink.piece({ type: 'delta', text: '{"a":1' });
    jest.advanceTimersByTime(PARTIAL_INTERVAL_MS);
    expect(sent.slice(1)).toEqual([
      ['start', { promptId: 'p', promptVersion: 1, llmModel: 'fallback', cached: false }],
      ['partial', { output: { a: 1 } }],
    ]);
  });

  it('a replayed cached answer is start and one piece, delta or partial as the endpoint answers', () => {
    const raw = sinkOf(false);
    raw.sink.selected(PROMPT, 'MISS');
    raw.sink.replay('m', 'text', 'text');
    expect(raw.sent).toEqual([
      ['open', { cache: 'HIT', prompt: 'main@1' }],
      ['start', { ...START, cached: true }],
      ['delta', { text: 'text' }],
    ]);
    const structured = sinkOf(true);
    structured.sink.selected(PROMPT, 'MISS');
    structured.sink.replay('m', '{"a":1}', { a: 1 });
    expect(structured.sent[2]).toEqual(['partial', { output: { a: 1 } }]);
  });

  it('opens at the first model call and names in `start` the model that sent the first piece', () => {
    const { sink, sent } = sinkOf(false);
    sink.selected(PROMPT, 'MISS');
    sink.attempt('first');
    expect(sent).toEqual([['open', { cache: 'MISS', prompt: 'main@1' }]]);
    expect(sink.started).toBe(true);
    expect(sink.hasContent).toBe(false);
    // The first model failed before answering anything; the fallback answers.
    sink.attempt('fallback');
    sink.piece({ type: 'delta', text: 'a' });
    expect(sink.hasContent).toBe(true);
    expect(sent).toEqual([
      ['open', { cache: 'MISS', prompt: 'main@1' }],
      ['start', { promptId: 'p', promptVersion: 1, llmModel: 'fallback', cached: false }],
      ['delta', { text: 'a' }],
    ]);
    // Sent once.
    sink.flushStart();
    expect(sent).toHaveLength(3);
  });

  it('a call that ends without any piece sends `start` before its end', () => {
    const { sink, sent } = sinkOf(false);
    sink.selected(PROMPT, null);
    sink.attempt('m');
    sink.flushStart();
    expect(sent).toEqual([
      ['open', { cache: null, prompt: 'main@1' }],
      ['start', { promptId: 'p', promptVersion: 1, llmModel: 'm', cached: false }],
    ]);
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
    sink.selected(PROMPT, null);
    const call = streamGeneration(waitingClient(seen), request(deadline.signal), sink, START.llmModel);
    expect(sent).toEqual([
      ['open', { cache: null, prompt: 'main@1' }],
      ['start', { ...START, cached: false }],
      ['delta', { text: 'a' }],
    ]);
    sink.clientLeft();
    expect(seen[0].aborted).toBe(true);
    await expect(call).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('the deadline aborts the provider call as well, and its failure is the provider error', async () => {
    const { sink } = sinkOf(false);
    sink.selected(PROMPT, null);
    const seen: AbortSignal[] = [];
    const deadline = new AbortController();
    const call = streamGeneration(waitingClient(seen), request(deadline.signal), sink, START.llmModel);
    deadline.abort();
    await expect(call).rejects.toBeInstanceOf(UpstreamTimeoutError);
  });

  it('an attempt with a share of the time fails with its own timeout when no piece came in it', async () => {
    jest.useFakeTimers();
    const { sink } = sinkOf(false);
    sink.selected(PROMPT, null);
    const seen: AbortSignal[] = [];
    const silent: LlmClient = {
      ...waitingClient(seen),
      streamText: (req: TextRequest) => {
        seen.push(req.abortSignal);
        return new Promise((_, reject) =>
          req.abortSignal.addEventListener('abort', () => reject(new UpstreamTimeoutError('aborted'))),
        );
      },
    };
    const call = streamGeneration(silent, request(new AbortController().signal), sink, 'm', {
      ms: 1000,
      message: 'm did not answer within the 1.0 seconds its attempt could use',
    });
    const failure = expect(call).rejects.toThrow('m did not answer within the 1.0 seconds its attempt could use');
    jest.advanceTimersByTime(1000);
    await failure;
    expect(seen[0].aborted).toBe(true);
    jest.useRealTimers();
  });

  it('an attempt that sends a piece in its share of the time keeps going past it', async () => {
    jest.useFakeTimers();
    const { sink } = sinkOf(false);
    sink.selected(PROMPT, null);
    const seen: AbortSignal[] = [];
    const call = streamGeneration(waitingClient(seen), request(new AbortController().signal), sink, 'm', {
      ms: 1000,
      message: 'late',
    });
    jest.advanceTimersByTime(5000);
    expect(seen[0].aborted).toBe(false);
    sink.clientLeft();
    await expect(call).rejects.toBeInstanceOf(ClientClosedError);
    jest.useRealTimers();
  });
});
