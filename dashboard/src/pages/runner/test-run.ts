import { createParser } from 'eventsource-parser';
import { api, ApiError, type Schemas, unwrap } from '../../api/client';

export type Endpoint = Schemas['EndpointResponse'];
export type InputField = Schemas['InputFieldResponse'];
export type Prompt = Schemas['PromptResponse'];

/**
 * What a test run answers: the execution body as `output` (any JSON, or the image body of an image endpoint), the
 * prompt as rendered, the prompt version and model that ran, tokens, cost, latency and the id of its log row.
 */
export type TestRun = Schemas['TestRunResponse'];

/** A prompt as the editor holds it, unsaved: what a test run of unsaved text takes. */
export type UnsavedPrompt = Schemas['UnsavedPromptDto'];

/** What a test run runs: a saved prompt (any status, Draft included), or unsaved text. */
export type RunTarget = { promptId: string } | { prompt: UnsavedPrompt };

/** A test run the service refused or that failed: its messages, and its log row when it was logged (X-Log-Id). */
export class FailedTestRun extends ApiError {
  constructor(
    status: number,
    messages: string[],
    readonly logId: string | null,
  ) {
    super(status, messages);
  }
}

/** Runs `target` on the endpoint with `inputs`, as an admin test run; a failure is a FailedTestRun. */
export async function runTest(
  endpointId: string,
  target: RunTarget,
  inputs: Record<string, unknown>,
): Promise<TestRun> {
  const request = api.POST('/admin/v1/endpoints/{id}/test', {
    params: { path: { id: endpointId } },
    body: { ...target, inputs },
  });
  try {
    return await unwrap(request);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const logId = (await request).response.headers.get('x-log-id');
    throw new FailedTestRun(error.status, error.messages, logId);
  }
}

/** What has come of a streamed run so far: the raw text (no output fields), or the object so far, not yet checked. */
export type StreamedPiece = { text: string } | { output: unknown };

/** The HTTP status a test run answers for each error a stream can end with. */
const STREAM_ERROR_STATUS: Record<string, number> = { timeout: 504, prompt_error: 422, upstream_error: 502 };

/**
 * Runs `target` as runTest does, answered as an event stream: `onPiece` gets what has come so far each time more
 * comes (the whole text, or the object so far). The same TestRun at the end, or a FailedTestRun. An image endpoint's
 * run (which cannot stream) and a run refused before its model was called answer as runTest's do.
 */
export async function streamTestRun(
  endpointId: string,
  target: RunTarget,
  inputs: Record<string, unknown>,
  onPiece: (piece: StreamedPiece) => void,
  signal?: AbortSignal,
): Promise<TestRun> {
  const { data, error, response } = await api.POST('/admin/v1/endpoints/{id}/test/stream', {
    params: { path: { id: endpointId } },
    body: { ...target, inputs },
    parseAs: 'stream',
    signal,
  });
  const logId = response.headers.get('x-log-id');
  if (!response.ok || !data) {
    try {
      await unwrap(Promise.resolve({ error, response }));
    } catch (refused) {
      if (refused instanceof ApiError) throw new FailedTestRun(refused.status, refused.messages, logId);
      throw refused;
    }
  }
  const body = data as ReadableStream<Uint8Array>;
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return ((await new Response(body).json()) as { data: TestRun }).data;
  }
  let text = '';
  let outcome: { run: TestRun } | { failure: FailedTestRun } | null = null;
  const parser = createParser({
    onEvent: ({ event, data: json }) => {
      const value = JSON.parse(json) as Record<string, unknown>;
      if (event === 'delta') onPiece({ text: (text += String(value.text)) });
      else if (event === 'partial') onPiece({ output: value.output });
      else if (event === 'done') outcome = { run: value as unknown as TestRun };
      else if (event === 'error') {
        const status = STREAM_ERROR_STATUS[String(value.error)] ?? 502;
        outcome = { failure: new FailedTestRun(status, [String(value.message)], (value.logId as string) ?? logId) };
      }
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  const ended = outcome as { run: TestRun } | { failure: FailedTestRun } | null;
  if (!ended) throw new ApiError(502, ['The run ended before its answer was complete.']);
  if ('failure' in ended) throw ended.failure;
  return ended.run;
}

/** The failed field a message names (`… field 'address.zip' is below …`), or null. */
export function failedFieldOf(messages: string[]): string | null {
  for (const message of messages) {
    const named = /field '([^']+)'/.exec(message);
    if (named) return named[1];
  }
  return null;
}

/** Every prompt of the endpoint: Draft and Live ones, then the archived ones (listed only on request). */
export async function allPromptsOf(endpointId: string): Promise<Prompt[]> {
  const [active, archived] = await Promise.all([
    unwrap(api.GET('/admin/v1/prompts', { params: { query: { endpointId } } })),
    unwrap(api.GET('/admin/v1/prompts', { params: { query: { endpointId, status: 'Archived' } } })),
  ]);
  return [...active, ...archived];
}

export async function endpointOf(endpointId: string): Promise<Endpoint> {
  return unwrap(api.GET('/admin/v1/endpoints/{id}', { params: { path: { id: endpointId } } }));
}

/** One image of an image endpoint's answer, ready for an <img>. */
export interface GeneratedImage {
  src: string;
  revisedPrompt: string | null;
}

/**
 * The images of an image endpoint's body (`{generatedImages: [{base64Data, revisedPrompt}], usage}`), or null when
 * the output is anything else. The provider sends bare base64: its first bytes tell the format.
 */
export function generatedImagesOf(output: unknown): GeneratedImage[] | null {
  if (!isRecord(output) || !Array.isArray(output.generatedImages)) return null;
  const images: GeneratedImage[] = [];
  for (const image of output.generatedImages) {
    if (!isRecord(image) || typeof image.base64Data !== 'string') return null;
    const data = image.base64Data;
    const src = data.startsWith('data:') ? data : `data:${imageTypeOf(data)};base64,${data}`;
    images.push({ src, revisedPrompt: typeof image.revisedPrompt === 'string' ? image.revisedPrompt : null });
  }
  return images;
}

function imageTypeOf(base64: string): string {
  if (base64.startsWith('/9j/')) return 'image/jpeg';
  if (base64.startsWith('R0lGOD')) return 'image/gif';
  if (base64.startsWith('UklGR')) return 'image/webp';
  return 'image/png';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
