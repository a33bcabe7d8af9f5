import { HttpException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ValidationError } from '../errors/app-error';
import { AppLogger } from '../logging/app-logger';
import type { GlobalExceptionFilter } from './exception-filters';
import { httpHost } from './http-host';
import {
  type HttpRequestLike,
  type HttpResponseLike,
  nodeRequestOf,
  nodeResponseOf,
  pathOf,
  setHeader,
} from './http-context';
import { RequestIdMiddleware } from './request-id.middleware';
import { securityHeadersFor } from './security-headers';

/** What Node's HTTP parser reports with a request it could not read (`clientError`). */
export type ClientError = Error & { code?: string; rawPacket?: Buffer };

/** The part of a request Node could read before refusing it. */
export interface RequestTarget {
  method?: string;
  /** The path without its query, or '/' when the request line could not be read. */
  path: string;
}

/**
 * The answer to a request Node's parser refused, by Node's error code: a head over the size limit is 431 (414 when
 * the request line alone is over it), a request slower than REQUEST_TIMEOUT_MS is 408, oversized chunk extensions
 * are 413, and every other framing error (conflicting or malformed lengths, a character HTTP does not allow in a
 * header, a malformed request line or chunk) is 400.
 */
export function clientErrorFailure(error: ClientError, maxHeaderSize: number): HttpException | ValidationError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpException('The request did not arrive within the request timeout', 408);
    case 'HPE_HEADER_OVERFLOW':
      return requestLineLength(error.rawPacket) > maxHeaderSize
        ? new HttpException(`The request target is longer than ${maxHeaderSize} bytes`, 414)
        : new HttpException(`The request headers are larger than ${maxHeaderSize} bytes`, 431);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new HttpException('The chunk extensions of the request body are too large', 413);
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return new ValidationError('A request may have one Content-Length and no Transfer-Encoding with it');
    case 'HPE_INVALID_CONTENT_LENGTH':
      return new ValidationError('The Content-Length header must be a number of bytes');
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return new ValidationError('The Transfer-Encoding header must end with chunked');
    case 'HPE_INVALID_HEADER_TOKEN':
      return new ValidationError('A header name or value holds a character HTTP does not allow');
    case 'HPE_INVALID_METHOD':
      return new ValidationError('The request method is not valid');
    case 'HPE_INVALID_URL':
      return new ValidationError('The request target is not valid');
    case 'HPE_INVALID_VERSION':
      return new ValidationError('The HTTP version is not valid');
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_STRICT':
    case 'HPE_INVALID_CONSTANT':
      return new ValidationError('The chunked request body is malformed');
    default:
      return new ValidationError('The request is not valid HTTP/1.1');
  }
}

const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) +([^\s]+)/;
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The method and path of the request line at the start of `packet`, when it starts with one (the data Node was
 * parsing when it failed: usually the whole head, but only its last piece when the head came in several).
 */
export function requestTargetOf(packet: Buffer | undefined): RequestTarget {
  const match = packet ? REQUEST_LINE.exec(packet.subarray(0, 8192).toString('latin1')) : null;
  if (!match) return { path: '/' };
  const target = match[2].replace(ABSOLUTE_FORM, '');
  const path = target.split(/[?#]/)[0];
  return { method: match[1], path: path.startsWith('/') ? path : '/' };
}

/** The length of the request line at the start of `packet` (all of it when no line end arrived). */
function requestLineLength(packet: Buffer | undefined): number {
  if (!packet || !REQUEST_LINE.test(packet.subarray(0, 64).toString('latin1'))) return 0;
  const end = packet.indexOf('\r\n');
  return end === -1 ? packet.length : end;
}

/**
 * Why a request's Host header is refused, or undefined when it is fine: an HTTP/1.1 request names exactly one Host,
 * and no request names more than one (which of two hosts is meant would be a guess, and a tenant's host decides
 * which keys are accepted).
 */
export function hostHeaderProblem(request: Pick<IncomingMessage, 'rawHeaders' | 'httpVersion'>): string | undefined {
  let hosts = 0;
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    if (request.rawHeaders[index].toLowerCase() === 'host') hosts += 1;
  }
  if (hosts > 1) return 'A request must have exactly one Host header';
  if (hosts === 0 && request.httpVersion === '1.1') return 'An HTTP/1.1 request must have a Host header';
  return undefined;
}

/** How long a refused connection is kept to let the client read the answer while it is still sending. */
const LINGER_MS = 2000;

/**
 * Answers requests that never reach Nest's pipeline in the shape of the surface their path belongs to (the admin
 * envelope on /admin, MCP's JSON-RPC error on /mcp, the flat `{error, message}` elsewhere), with an X-Request-Id:
 * what Node's HTTP parser refuses (`clientError`), an Expect other than 100-continue, the router errors Fastify
 * raises before any hook (a malformed percent escape, an over-long path parameter), and a missing or repeated Host.
 */
export class ProtocolErrors {
  /** Connections already answered: Node reports each further byte of a refused request as another error. */
  private readonly answered = new WeakSet<Socket>();

  constructor(
    private readonly filters: GlobalExceptionFilter,
    private readonly requestIds: RequestIdMiddleware,
    private readonly logger: AppLogger,
    private readonly maxHeaderSize: number,
  ) {}

  /** The HTTP server's `clientError` listener, in place of Node's (an empty 400, 408 or 431) and Fastify's. */
  readonly onClientError = (error: ClientError, socket: Socket): void => {
    if (this.answered.has(socket)) return;
    if (error.code === 'ECONNRESET' || socket.destroyed) {
      socket.destroy();
      return;
    }
    // A request whose head was read (its body was too slow) already has its id and path.
    const request = inFlightResponse(socket)?.req;
    const target = request ? { method: request.method, path: pathOf(request) } : requestTargetOf(error.rawPacket);
    this.writeFailure(socket, target, clientErrorFailure(error, this.maxHeaderSize), request?.requestId);
  };

  /** The HTTP server's `checkExpectation` listener: an HTTP/1.1 Expect other than 100-continue is a 417. */
  readonly onCheckExpectation = (request: IncomingMessage & { requestId?: string }, response: ServerResponse): void => {
    this.requestIds.use(request, response, () =>
      this.writeFailure(
        request.socket,
        { method: request.method, path: pathOf(request) },
        new HttpException('The Expect header may only be 100-continue', 417),
        request.requestId,
      ),
    );
  };

  /**
   * Fastify's `frameworkErrors`: its router refuses a path with a malformed percent escape (400) or a parameter
   * over its maximum length (414) before any hook, so the request gets its id here.
   */
  readonly onFrameworkError = (
    error: Error & { code?: string },
    request: HttpRequestLike,
    reply: HttpResponseLike,
  ): void => {
    const failure =
      error.code === 'FST_ERR_BAD_URL'
        ? new ValidationError('The request path has a malformed percent escape')
        : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new HttpException('A segment of the request path is too long', 414)
          : error;
    this.requestIds.use(nodeRequestOf(request), nodeResponseOf(reply), () => this.refuse(failure, request, reply));
  };

  /**
   * Refuses a request whose Host header is missing or repeated, in the adapter's request hook: true when it was
   * refused (the hook goes no further).
   */
  refuseMalformedHost(request: HttpRequestLike, response: HttpResponseLike): boolean {
    const problem = hostHeaderProblem(nodeRequestOf(request));
    if (problem === undefined) return false;
    this.refuse(new ValidationError(problem), request, response);
    return true;
  }

  /** Answers through the surface's filter with the adapter's own request and response; the body is never read. */
  private refuse(failure: unknown, request: HttpRequestLike, response: HttpResponseLike): void {
    try {
      setHeader(response, 'Connection', 'close');
      this.filters.catch(failure, httpHost(request, response));
    } catch {
      nodeRequestOf(request).socket?.destroy();
    }
  }

  /**
   * Writes the surface's answer to `failure` straight onto the connection and closes it. Nothing is written when
   * the connection can no longer be written or an answer to it has begun: it is closed.
   */
  private writeFailure(socket: Socket, target: RequestTarget, failure: unknown, requestId: string | undefined): void {
    this.answered.add(socket);
    if (!socket.writable || inFlightResponse(socket)?.headersSent) {
      socket.destroy();
      return;
    }
    const id = requestId ?? randomUUID();
    const answer = this.filters.filterFor(target.path).answer(failure, id, target.path);
    const body = JSON.stringify(answer.body);
    const headers: Record<string, string> = {
      ...securityHeadersFor(target.path),
      ...answer.headers,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      'X-Request-Id': id,
      Connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n${head}\r\n${body}`);
    // What the client still sends is read and dropped meanwhile, so closing does not reset the answer away.
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
    if (this.logger.isEnabled('info')) {
      this.logger.access({
        requestId: id,
        method: target.method,
        path: target.path,
        status: answer.status,
        durationMs: 0,
      });
    }
  }
}

/** The response Node is preparing on this connection, if a request's head was read. */
function inFlightResponse(
  socket: Socket,
): (ServerResponse & { req?: IncomingMessage & { requestId?: string } }) | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage ?? undefined;
}
