import { UnauthorizedError, ValidationError } from '../errors/app-error';
import { presentedKey, tenantOfHost } from './presented-key';

const request = (headers: Record<string, string>) => ({ headers });

describe('presentedKey', () => {
  it('reads x-api-key', () => {
    expect(presentedKey(request({ 'x-api-key': 'k1' }), true)).toBe('k1');
  });

  it('reads a Bearer token on the admin surface, case-insensitively', () => {
    expect(presentedKey(request({ authorization: 'Bearer k1' }), true)).toBe('k1');
    expect(presentedKey(request({ authorization: 'bearer   k1 ' }), true)).toBe('k1');
  });

  it('ignores the Authorization header where Bearer is not accepted', () => {
    expect(presentedKey(request({ authorization: 'Bearer k1' }), false)).toBeUndefined();
  });

  it('ignores other authorization schemes and empty values', () => {
    expect(presentedKey(request({ authorization: 'Basic abc' }), true)).toBeUndefined();
    expect(presentedKey(request({ authorization: 'Bearer ' }), true)).toBeUndefined();
    expect(presentedKey(request({ 'x-api-key': '  ' }), true)).toBeUndefined();
    expect(presentedKey(request({}), true)).toBeUndefined();
  });

  it('accepts both headers when they name the same key', () => {
    expect(presentedKey(request({ 'x-api-key': 'k1', authorization: 'Bearer k1' }), true)).toBe('k1');
  });

  it('refuses two different keys', () => {
    expect(() => presentedKey(request({ 'x-api-key': 'k1', authorization: 'Bearer k2' }), true)).toThrow(
      UnauthorizedError,
    );
  });
});

describe('tenantOfHost', () => {
  it.each([
    ['acme.localhost', 'acme'],
    ['acme.localhost:3000', 'acme'],
    ['ACME.LocalHost:80', 'acme'],
    ['acme.localhost.', 'acme'],
    ['acme.localhost.:3000', 'acme'],
    ['localhost', null],
    ['localhost.', null],
    ['localhost:3000', null],
    ['localhost:', null],
    ['127.0.0.1:3000', null],
    ['[::1]:3000', null],
    ['[::1]', null],
    ['acme.example.com', null],
    ['my_service:8080', null],
    ['', null],
  ])('%s → %s', (host, tenant) => {
    expect(tenantOfHost(host, 'localhost')).toBe(tenant);
  });

  it('returns everything before the base domain, so a deeper host matches no slug', () => {
    expect(tenantOfHost('x.beta.localhost', 'localhost')).toBe('x.beta');
    expect(tenantOfHost('x.beta.localhost.:3000', 'localhost')).toBe('x.beta');
  });

  it.each([
    'beta.localhost:abc',
    'beta.localhost:3000:1',
    'beta.localhost:-1',
    'beta.localhost..',
    '.localhost',
    'beta..localhost',
    'beta localhost',
    'beta.localhost/x',
    'user@beta.localhost',
    '::1',
    '[::1]:abc',
    'bêta.localhost',
  ])('refuses the malformed Host %j with a validation error naming the Host header', (host) => {
    expect(() => tenantOfHost(host, 'localhost')).toThrow(ValidationError);
    expect(() => tenantOfHost(host, 'localhost')).toThrow(/Host header/);
  });

  it('uses the configured base domain', () => {
    expect(tenantOfHost('acme.api.example.com:443', 'api.example.com')).toBe('acme');
    expect(tenantOfHost('acme.api.example.com.', 'api.example.com.')).toBe('acme');
    expect(tenantOfHost('api.example.com', 'api.example.com')).toBeNull();
    expect(tenantOfHost('evil-api.example.com', 'api.example.com')).toBeNull();
    expect(tenantOfHost(undefined, 'localhost')).toBeNull();
  });
});
