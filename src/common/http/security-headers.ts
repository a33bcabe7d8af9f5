/**
 * The security headers of every answer the service gives, in one place. Each answer is kept out of frames, is never
 * content-sniffed into another type, and sends no Referer onwards; its Content-Security-Policy suits what it is:
 *
 * - the JSON APIs, /health and /metrics: nothing may load or run (`default-src 'none'`);
 * - the dashboard (`/dashboard/…`): scripts, styles and connections from this origin only (no inline script or
 *   style), images also from data: and blob: URLs (a test run's image answers, an uploaded image's preview);
 * - Swagger UI (`/docs`, and the tenant's page at `/api/v1/docs`): scripts and connections from this origin only;
 *   Swagger UI sets inline styles (its page has a style element, its widgets style attributes) and shows data:
 *   images, so styles may be inline and images data: URLs. No inline script is allowed on either.
 */
const COMMON_DIRECTIVES = ["base-uri 'none'", "frame-ancestors 'none'"];

export const API_CSP = ["default-src 'none'", ...COMMON_DIRECTIVES].join('; ');

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'none'",
  ...COMMON_DIRECTIVES,
].join('; ');

export const SWAGGER_UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  ...COMMON_DIRECTIVES,
].join('; ');

/** The headers of an answer under `policy`. */
export function securityHeaders(policy: string): Record<string, string> {
  return {
    'Content-Security-Policy': policy,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  };
}

const HEADERS = {
  api: securityHeaders(API_CSP),
  dashboard: securityHeaders(DASHBOARD_CSP),
  swaggerUi: securityHeaders(SWAGGER_UI_CSP),
};

/**
 * The security headers for a request path (its query removed or not): the page it names decides the policy. A
 * spelling the routers serve but this does not recognise (another case, say) gets the API's policy, which lets
 * nothing load: a page that then fails to render, never a page with a looser policy than its own.
 */
export function securityHeadersFor(url: string): Record<string, string> {
  const query = url.search(/[?#]/);
  const path = query === -1 ? url : url.slice(0, query);
  if (path === '/dashboard' || path.startsWith('/dashboard/')) return HEADERS.dashboard;
  if (path === '/docs' || path.startsWith('/docs/') || path === '/api/v1/docs' || path.startsWith('/api/v1/docs/'))
    return HEADERS.swaggerUi;
  return HEADERS.api;
}
