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
