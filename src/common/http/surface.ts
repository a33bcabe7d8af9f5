import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '../../config/app-config';

/** The surfaces that need a key. */
export type KeyedSurface = 'admin' | 'execution' | 'mcp';

/** Every surface: the keyed ones, and `open` for every other path (/health, /metrics, /docs, the dashboard, …). */
export type Surface = KeyedSurface | 'open';

/** How a surface renders a refusal: the admin envelope, the execution API's flat body, or a JSON-RPC error. */
export type ErrorShape = 'envelope' | 'flat' | 'jsonrpc';

/** Where a key may be presented: the x-api-key header, or an Authorization: Bearer token. */
export type KeyForm = 'x-api-key' | 'bearer';

interface SurfaceRules {
  /** The path its routes live under (null: the open routes, every path no keyed surface claims). */
  prefix: string | null;
  /**
   * The paths whose errors take this surface's shape, its routes' and any unknown path under the same root (so a
   * mistyped admin path is answered in the envelope); paths under no root take the open surface's shape.
   */
  errorRoot: string | null;
  errorShape: ErrorShape;
  /** Which limit bounds its bodies: MAX_BODY_BYTES, or for `admin` MAX_ADMIN_BODY_BYTES as well. */
  bodyLimit: 'body' | 'admin';
  /** The methods that may carry a body (clients commonly send `{}` with a DELETE); none on the open routes. */
  bodyMethods: ReadonlySet<string>;
  /** How its key may be presented; the open routes take none. */
  keyForms: readonly KeyForm[];
}

const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Each surface's rules, in one place: the pre-body check, the exception filters and the metrics all read them. */
export const SURFACES: Readonly<Record<Surface, SurfaceRules>> = {
  execution: {
    prefix: '/api/v1',
    errorRoot: null,
    errorShape: 'flat',
    bodyLimit: 'body',
    bodyMethods: BODY_METHODS,
    keyForms: ['x-api-key'],
  },
  admin: {
    prefix: '/admin/v1',
    errorRoot: '/admin',
    errorShape: 'envelope',
    bodyLimit: 'admin',
    bodyMethods: BODY_METHODS,
    keyForms: ['x-api-key', 'bearer'],
  },
  mcp: {
    prefix: '/mcp',
    errorRoot: '/mcp',
    errorShape: 'jsonrpc',
    bodyLimit: 'admin',
    bodyMethods: BODY_METHODS,
    keyForms: ['x-api-key', 'bearer'],
  },
  open: { prefix: null, errorRoot: null, errorShape: 'flat', bodyLimit: 'body', bodyMethods: new Set(), keyForms: [] },
};

const KEYED_SURFACES = (Object.keys(SURFACES) as Surface[]).filter(
  (surface): surface is KeyedSurface => SURFACES[surface].prefix !== null,
);

/** The keyed prefixes as one pattern, each segment allowing repeated slashes: `^/+(?:(api/+v1)|(admin/+v1)|(mcp))…`. */
const KEYED_PATH = new RegExp(
  `^/+(?:${KEYED_SURFACES.map((surface) => `(${SURFACES[surface].prefix!.slice(1).split('/').join('/+')})`).join('|')})(?:[/?#]|$)`,
);

/** The usual spelling of an execution, recognised without decoding. */
const EXECUTION_FAST_PREFIX = `${SURFACES.execution.prefix}/`;

/** The scheme and authority of an absolute-form request target (`GET http://host/path HTTP/1.1`). */
const ABSOLUTE_FORM_ORIGIN = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i;

/** A request target without the origin of its absolute form, which the routers route by its path alone. */
function originFormOf(url: string): string {
  if (url.startsWith('/')) return url;
  const origin = ABSOLUTE_FORM_ORIGIN.exec(url);
  return origin ? url.slice(origin[0].length) || '/' : url;
}

/**
 * The keyed surface a request target belongs to, or null for the open routes (/health, /docs, unknown paths).
 * Matched more loosely than the routers match (in absolute form too, case-insensitively, after percent-decoding,
 * repeated slashes allowed), so no spelling a router accepts escapes the check.
 */
export function keyedSurfaceOf(url: string): KeyedSurface | null {
  if (url.startsWith(EXECUTION_FAST_PREFIX)) return 'execution';
  let path = originFormOf(url);
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape: the routers do not decode it either.
  }
  const match = KEYED_PATH.exec(path.toLowerCase());
  if (!match) return null;
  const index = match.slice(1).findIndex((group) => group !== undefined);
  return KEYED_SURFACES[index];
}

/** The surface a request target belongs to (`open` for every path no keyed surface claims). */
export function surfaceOf(url: string): Surface {
  return keyedSurfaceOf(url) ?? 'open';
}

/** The surface whose error shape a path (without its query) takes: the one whose error root holds it, else `open`. */
export function errorSurfaceOf(path: string): Surface {
  for (const surface of KEYED_SURFACES) {
    const root = SURFACES[surface].errorRoot;
    if (root !== null && (path === root || path.startsWith(`${root}/`))) return surface;
  }
  return 'open';
}

/**
 * The largest body a surface takes: MAX_BODY_BYTES, and for admin and MCP requests MAX_ADMIN_BODY_BYTES too. Open
 * routes (null) take MAX_BODY_BYTES.
 */
export function bodyLimitOf(
  surface: KeyedSurface | null,
  config: Pick<AppConfig, 'maxBodyBytes' | 'maxAdminBodyBytes'>,
): number {
  return SURFACES[surface ?? 'open'].bodyLimit === 'admin'
    ? Math.min(config.maxAdminBodyBytes, config.maxBodyBytes)
    : config.maxBodyBytes;
}

/** Whether a surface's bodies are bounded by MAX_ADMIN_BODY_BYTES (its JSON is parsed with that limit). */
export function hasAdminBodyLimit(surface: KeyedSurface | null): boolean {
  return SURFACES[surface ?? 'open'].bodyLimit === 'admin';
}

/** Whether a surface takes its key as an Authorization: Bearer token too. */
export function acceptsBearer(surface: Surface): boolean {
  return SURFACES[surface].keyForms.includes('bearer');
}

/**
 * Pages under /api/v1 that hold no tenant data and so need no key: the Swagger UI page of a tenant's OpenAPI document
 * and its script and style (the page asks for a key and fetches the document with it). Matched exactly (a GET or
 * HEAD of one of these paths, with any query), so no other spelling skips authentication.
 */
const OPEN_EXECUTION_PAGES = new Set(['/api/v1/docs', '/api/v1/docs/tenant-docs.js', '/api/v1/docs/tenant-docs.css']);

export function isOpenPage(method: string | undefined, url = '/'): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const target = originFormOf(url);
  const query = target.indexOf('?');
  return OPEN_EXECUTION_PAGES.has(query === -1 ? target : target.slice(0, query));
}

/** The Content-Length a request declares, or null when it has none (no body, or a chunked one). */
export function declaredLength(request: Pick<IncomingMessage, 'headers'>): number | null {
  const value = request.headers['content-length'];
  return value === undefined ? null : Number(value);
}

/** Whether a request comes with a body: a Content-Length above 0, or a chunked one. */
export function announcesBody(request: Pick<IncomingMessage, 'headers'>): boolean {
  return request.headers['transfer-encoding'] !== undefined || (declaredLength(request) ?? 0) > 0;
}

/**
 * Whether a request may carry a body: only a POST, PUT, PATCH or DELETE of a keyed surface does, within the
 * surface's limit; no GET, HEAD or OPTIONS, and no open route (/health, /metrics, /docs, the dashboard, an unknown
 * path) reads one.
 */
export function takesBody(method: string | undefined, surface: KeyedSurface | null): boolean {
  return SURFACES[surface ?? 'open'].bodyMethods.has(method ?? '');
}
