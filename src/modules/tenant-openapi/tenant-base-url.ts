/**
 * The base URL of a tenant's endpoints as the caller reaches the service: `<scheme>://<slug>.<BASE_DOMAIN>[:port]`.
 * The scheme is the `X-Forwarded-Proto` a TLS-terminating proxy sets (`http` or `https`; `http` without one), and
 * the port the one the request's `Host` names, so that a document fetched from `localhost:3000` or from
 * `acme.localhost:3000` names `http://acme.localhost:3000`.
 */
export function tenantBaseUrl(
  request: { host: string | undefined; forwardedProto: string | undefined },
  tenantSlug: string,
  baseDomain: string,
): string {
  const proto = request.forwardedProto?.split(',')[0].trim().toLowerCase();
  const scheme = proto === 'https' || proto === 'http' ? proto : 'http';
  const port = /:(\d+)$/.exec(request.host ?? '')?.[1];
  const domain = baseDomain.toLowerCase().replace(/\.$/, '');
  return `${scheme}://${tenantSlug}.${domain}${port ? `:${port}` : ''}`;
}
