import { HttpException } from '@nestjs/common';
import { ValidationError } from '../errors/app-error';
import { describeFailure } from './error-mapping';
import { type ClientError, clientErrorFailure, hostHeaderProblem, requestTargetOf } from './protocol-errors';

const clientError = (code: string, rawPacket?: string): ClientError =>
  Object.assign(new Error(code), {
    code,
    rawPacket: rawPacket === undefined ? undefined : Buffer.from(rawPacket, 'latin1'),
  });

const statusOf = (error: ClientError) => describeFailure(clientErrorFailure(error, 16_384)).status;

describe('clientErrorFailure', () => {
  it('answers each of Node parser errors with its status', () => {
    expect(statusOf(clientError('ERR_HTTP_REQUEST_TIMEOUT'))).toBe(408);
    expect(statusOf(clientError('HPE_HEADER_OVERFLOW', `GET /x HTTP/1.1\r\nX-Filler: ${'x'.repeat(20_000)}`))).toBe(
      431,
    );
    expect(statusOf(clientError('HPE_CHUNK_EXTENSIONS_OVERFLOW'))).toBe(413);
    for (const code of [
      'HPE_UNEXPECTED_CONTENT_LENGTH',
      'HPE_INVALID_CONTENT_LENGTH',
      'HPE_INVALID_HEADER_TOKEN',
      'HPE_INVALID_METHOD',
      'HPE_SOMETHING_NEW',
    ]) {
      expect(statusOf(clientError(code))).toBe(400);
    }
  });

  it('answers 414 when the request line alone is over the head size limit', () => {
    expect(statusOf(clientError('HPE_HEADER_OVERFLOW', `GET /x?q=${'q'.repeat(20_000)}`))).toBe(414);
    expect(statusOf(clientError('HPE_HEADER_OVERFLOW', `GET /x?q=${'q'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n`))).toBe(
      414,
    );
    // Only the last piece of a head that came in several pieces: no request line to measure.
    expect(statusOf(clientError('HPE_HEADER_OVERFLOW', 'x'.repeat(20_000)))).toBe(431);
  });

  it('gives every refusal a message and an error code of its own', () => {
    for (const code of [
      'ERR_HTTP_REQUEST_TIMEOUT',
      'HPE_HEADER_OVERFLOW',
      'HPE_CHUNK_EXTENSIONS_OVERFLOW',
      'HPE_INVALID_CONTENT_LENGTH',
    ]) {
      const described = describeFailure(clientErrorFailure(clientError(code), 16_384));
      expect(described.message).not.toBe('');
      expect(described.error).toMatch(/^[a-z][a-z_]*$/);
      expect(described.error).not.toBe('error');
    }
    const failure = clientErrorFailure(clientError('HPE_INVALID_CONTENT_LENGTH'), 16_384);
    expect(failure).toBeInstanceOf(ValidationError);
    expect(clientErrorFailure(clientError('ERR_HTTP_REQUEST_TIMEOUT'), 16_384)).toBeInstanceOf(HttpException);
  });
});

describe('requestTargetOf', () => {
  const target = (text: string | undefined) =>
    requestTargetOf(text === undefined ? undefined : Buffer.from(text, 'latin1'));

  it('reads the method and path of the request line', () => {
    expect(target('POST /admin/v1/endpoints?x=1 HTTP/1.1\r\nHost: a\r\n')).toEqual({
      method: 'POST',
      path: '/admin/v1/endpoints',
    });
    expect(target('GET /mcp#frag HTTP/1.1\r\n')).toEqual({ method: 'GET', path: '/mcp' });
    expect(target(`GET /admin/v1/keys?q=${'q'.repeat(20_000)}`)).toEqual({ method: 'GET', path: '/admin/v1/keys' });
  });

  it('takes the path of an absolute-form target', () => {
    expect(target('GET http://evil.example/admin/v1/endpoints HTTP/1.1\r\n')).toEqual({
      method: 'GET',
      path: '/admin/v1/endpoints',
    });
    expect(target('GET http://evil.example HTTP/1.1\r\n')).toEqual({ method: 'GET', path: '/' });
  });

  it('falls back to / when no request line can be read', () => {
    expect(target(undefined)).toEqual({ path: '/' });
    expect(target('x-filler: aaaa\r\n')).toEqual({ path: '/' });
    expect(target('')).toEqual({ path: '/' });
    expect(target('GET * HTTP/1.1\r\n')).toEqual({ method: 'GET', path: '/' });
  });
});

describe('hostHeaderProblem', () => {
  const head = (httpVersion: string, ...rawHeaders: string[]) => ({ httpVersion, rawHeaders });

  it('takes one Host, and none on HTTP/1.0', () => {
    expect(hostHeaderProblem(head('1.1', 'Host', 'localhost', 'Accept', '*/*'))).toBeUndefined();
    expect(hostHeaderProblem(head('1.0'))).toBeUndefined();
    expect(hostHeaderProblem(head('1.0', 'host', 'localhost'))).toBeUndefined();
  });

  it('refuses a repeated Host in any spelling, and none on HTTP/1.1', () => {
    expect(hostHeaderProblem(head('1.1', 'Host', 'a', 'HOST', 'a'))).toMatch(/exactly one Host/);
    expect(hostHeaderProblem(head('1.0', 'host', 'a', 'host', 'b'))).toMatch(/exactly one Host/);
    expect(hostHeaderProblem(head('1.1', 'Accept', '*/*'))).toMatch(/must have a Host/);
  });
});
