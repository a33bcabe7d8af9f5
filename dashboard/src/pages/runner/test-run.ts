import { api, type Schemas, unwrap } from '../../api/client';

export type Endpoint = Schemas['EndpointResponse'];
export type InputField = Schemas['InputFieldResponse'];
export type Prompt = Schemas['PromptResponse'];

/**
 * What a test run answers: the execution body as `output` (any JSON, or the image body of an image endpoint), the
 * prompt as rendered, the prompt version and model that ran, tokens, cost, latency and the id of its log row.
 */
export type TestRun = Schemas['TestRunResponse'];

/** Runs `promptId` (any status, Draft included) of the endpoint with `inputs`, as an admin test run. */
export function runTest(endpointId: string, promptId: string, inputs: Record<string, unknown>): Promise<TestRun> {
  return unwrap(
    api.POST('/admin/v1/endpoints/{id}/test', { params: { path: { id: endpointId } }, body: { promptId, inputs } }),
  );
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
