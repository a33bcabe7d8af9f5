import { API_CSP, DASHBOARD_CSP, securityHeadersFor, SWAGGER_UI_CSP } from './security-headers';

describe('securityHeadersFor', () => {
  it.each([
    ['/docs', SWAGGER_UI_CSP],
    ['/docs/swagger-ui-bundle.js', SWAGGER_UI_CSP],
    ['/api/v1/docs?x=1', SWAGGER_UI_CSP],
    ['/api/v1/docs/tenant-docs.js', SWAGGER_UI_CSP],
    ['/dashboard', DASHBOARD_CSP],
    ['/dashboard/assets/index.js', DASHBOARD_CSP],
    ['/docs-json', API_CSP],
    ['/health', API_CSP],
    ['/api/v1/docsx', API_CSP],
    ['/DOCS', API_CSP],
    ['/admin/v1/endpoints', API_CSP],
  ])('gives %s its policy', (url, policy) => {
    expect(securityHeadersFor(url)).toEqual({
      'Content-Security-Policy': policy,
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    });
  });

  it('allows no inline or evaluated script, and no framing, under any policy', () => {
    for (const policy of [API_CSP, DASHBOARD_CSP, SWAGGER_UI_CSP]) {
      expect(policy).toMatch(/^default-src 'none'/);
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toMatch(/script-src[^;]*'unsafe/);
    }
  });
});
