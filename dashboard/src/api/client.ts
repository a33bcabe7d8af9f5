import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';
import { session } from '../session';

/** The component schemas of the service's OpenAPI document: `Schemas['EndpointResponse']`. */
export type Schemas = components['schemas'];

/**
 * The admin API's base: the dashboard is served at `<base>/dashboard/`, so the API is one level up from the page,
 * whatever path a proxy mounts the service under.
 */
const API_BASE = new URL('../', document.baseURI).href.replace(/\/$/, '');

/** The one way the dashboard reaches the service: a client typed by the generated `paths`. */
export const api = createClient<paths>({ baseUrl: API_BASE });

const auth: Middleware = {
  onRequest({ request }) {
    const key = session.key();
    if (key) request.headers.set('x-api-key', key);
    return request;
  },
  onResponse({ response }) {
    // A key revoked (or expired) while signed in: back to sign-in.
    if (response.status === 401 && session.key()) session.expire('Your key is no longer accepted. Sign in again.');
    return response;
  },
};
api.use(auth);

/** A refused call: its HTTP status and the API's messages, one per problem. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
  ) {
    super(messages.join('\n') || `The service answered ${status}`);
  }
}

interface Envelope<T> {
  data: T;
}

interface FetchResult<T> {
  data?: Envelope<T>;
  error?: unknown;
  response: Response;
}

/** The `data` of a successful envelope, or an ApiError with the envelope's messages. */
export async function unwrap<T>(request: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await request;
  if (response.ok && data) return data.data;
  throw new ApiError(response.status, messagesOf(error, response.status));
}

/** A page of a list: its rows, and whether the `Link: rel="next"` header announced another page. */
export async function unwrapPage<T>(request: Promise<FetchResult<T[]>>): Promise<{ items: T[]; hasNextPage: boolean }> {
  const { data, error, response } = await request;
  if (response.ok && data)
    return { items: data.data, hasNextPage: /rel="next"/.test(response.headers.get('link') ?? '') };
  throw new ApiError(response.status, messagesOf(error, response.status));
}

function messagesOf(error: unknown, status: number): string[] {
  const messages = (error as { messages?: unknown } | undefined)?.messages;
  if (Array.isArray(messages) && messages.length > 0) return messages.map(String);
  const message = (error as { error?: { message?: unknown } } | undefined)?.error?.message;
  if (typeof message === 'string') return [message];
  return [status === 429 ? 'Too many requests: wait a moment and try again.' : `The service answered ${status}.`];
}
