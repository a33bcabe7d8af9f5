import { announcesBody, bodyLimitOf, isOpenPage, keyedSurfaceOf, takesBody } from './surface';

describe('keyedSurfaceOf', () => {
  it.each([
    ['/api/v1/summarize', 'execution'],
    ['/api/v1/a/b?prompt=x', 'execution'],
    ['/API/V1/summarize', 'execution'],
    ['//api//v1/summarize', 'execution'],
    ['/%61pi/v1/summarize', 'execution'],
    ['/admin/v1/endpoints', 'admin'],
    ['/admin/v1', 'admin'],
    ['/Admin/V1/keys/', 'admin'],
    ['/mcp', 'mcp'],
    ['/mcp/', 'mcp'],
    ['/mcp?x=1', 'mcp'],
    ['/MCP', 'mcp'],
  ])('%s is on the %s surface', (url, surface) => {
    expect(keyedSurfaceOf(url)).toBe(surface);
  });

  it.each([
    '/',
    '/health',
    '/docs',
    '/docs-json',
    '/nothing-here',
    '/mcpx',
    '/admin',
    '/admin/v2/x',
    '/api/v2/x',
    '/apiv1/x',
    '/%E0%A4%A',
  ])('%s needs no key', (url) => {
    expect(keyedSurfaceOf(url)).toBeNull();
  });
});

describe('bodyLimitOf', () => {
  const config = { maxBodyBytes: 10_000, maxAdminBodyBytes: 1_000 };

  it('caps admin and MCP bodies at the admin limit and the others at the body limit', () => {
    expect(bodyLimitOf('admin', config)).toBe(1_000);
    expect(bodyLimitOf('mcp', config)).toBe(1_000);
    expect(bodyLimitOf('execution', config)).toBe(10_000);
    expect(bodyLimitOf(null, config)).toBe(10_000);
  });

  it('never lets an admin body exceed the body limit', () => {
    expect(bodyLimitOf('admin', { maxBodyBytes: 500, maxAdminBodyBytes: 1_000 })).toBe(500);
  });
});

describe('isOpenPage', () => {
  it('lets a GET or HEAD of the Swagger UI page of a tenant document and its two files through without a key', () => {
    for (const url of [
      '/api/v1/docs',
      '/api/v1/docs?x=1',
      '/api/v1/docs/tenant-docs.js',
      '/api/v1/docs/tenant-docs.css',
    ]) {
      expect(isOpenPage('GET', url)).toBe(true);
      expect(isOpenPage('HEAD', url)).toBe(true);
    }
  });

  it('matches those paths exactly: any other method or spelling needs a key', () => {
    expect(isOpenPage('POST', '/api/v1/docs')).toBe(false);
    expect(isOpenPage('GET', '/api/v1/openapi.json')).toBe(false);
    for (const url of ['/API/V1/docs', '//api/v1/docs', '/api/v1/docs/', '/api/v1/%64ocs', '/api/v1/docs/other', '/']) {
      expect(isOpenPage('GET', url)).toBe(false);
    }
  });
});

describe('takesBody and announcesBody', () => {
  it('lets only POST, PUT, PATCH and DELETE of a keyed surface carry a body', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(takesBody(method, 'admin')).toBe(true);
      expect(takesBody(method, 'execution')).toBe(true);
      expect(takesBody(method, null)).toBe(false);
    }
    for (const method of ['GET', 'HEAD', 'OPTIONS', undefined]) expect(takesBody(method, 'mcp')).toBe(false);
  });

  it('counts a positive Content-Length or any Transfer-Encoding as a body, and Content-Length 0 as none', () => {
    expect(announcesBody({ headers: { 'content-length': '1' } })).toBe(true);
    expect(announcesBody({ headers: { 'transfer-encoding': 'chunked' } })).toBe(true);
    expect(announcesBody({ headers: { 'content-length': '0' } })).toBe(false);
    expect(announcesBody({ headers: {} })).toBe(false);
  });
});

describe('a request target in absolute form', () => {
  it.each([
    ['http://evil.example/admin/v1/endpoints', 'admin'],
    ['HTTPS://x.example:8080/api/v1/summarize', 'execution'],
    ['http://x.example/mcp?tools=a', 'mcp'],
  ])('%s is on the surface of its path', (url, surface) => {
    expect(keyedSurfaceOf(url)).toBe(surface);
  });

  it('names an open page or an open route by its path', () => {
    expect(isOpenPage('GET', 'http://x.example/api/v1/docs')).toBe(true);
    expect(keyedSurfaceOf('http://x.example/health')).toBeNull();
    expect(keyedSurfaceOf('http://x.example')).toBeNull();
  });
});
