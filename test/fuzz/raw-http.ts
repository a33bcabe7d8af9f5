import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

export interface SentRequest {
  method: string;
  /** Path and query exactly as they go on the request line (already percent-encoded where meant to be). */
  target: string;
  /** Header values; an array sends the header once per value (a duplicate Host, say). */
  headers: Record<string, string | string[]>;
  /** The exact body bytes (a string is sent as UTF-8); absent sends no body. */
  body?: string | Buffer;
}

/**
 * A plain HTTP client for the fuzz suite. supertest adds headers of its own (a form content type for string bodies,
 * for instance); the fuzz cases need every byte as written, so requests go through node:http to the app's own
 * listening server.
 */
export class RawHttpClient {
  // A connection per request: the server closes some connections after an error answer, and a kept-alive socket
  // reused at that moment would fail the next case with a reset that is no fault of the service.
  private readonly agent = new http.Agent({ keepAlive: false });

  private constructor(readonly port: number) {}

  static async listen(server: http.Server): Promise<RawHttpClient> {
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new RawHttpClient((server.address() as AddressInfo).port);
  }

  send(request: SentRequest, timeoutMs = 30_000): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const body =
        request.body === undefined
          ? undefined
          : Buffer.isBuffer(request.body)
            ? request.body
            : Buffer.from(request.body, 'utf8');
      const headers: Record<string, string | string[]> = { ...request.headers };
      if (body !== undefined && !hasHeader(headers, 'content-length')) headers['content-length'] = String(body.length);
      const outgoing = http.request({
        host: '127.0.0.1',
        port: this.port,
        method: request.method,
        path: request.target,
        headers,
        agent: this.agent,
        // Host comes from the case when it sets one; node:http must not add its own next to it.
        setHost: !hasHeader(headers, 'host'),
      });
      outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      outgoing.on('error', reject);
      outgoing.on('response', (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text, json: parseJson(text) });
        });
      });
      outgoing.end(body);
    });
  }

  /** Writes the bytes as they are on a fresh connection (request lines node:http would refuse to build). */
  sendBytes(bytes: string, timeoutMs = 30_000): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(this.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      // The answer to HEAD has the headers of a GET and no body.
      const isHead = bytes.startsWith('HEAD ');
      socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      socket.on('data', (chunk) => {
        chunks.push(chunk);
        const parsed = parseRawResponse(Buffer.concat(chunks), false, isHead);
        if (parsed) {
          socket.destroy();
          resolve(parsed);
        }
      });
      socket.on('error', reject);
      socket.on('close', () => {
        const parsed = parseRawResponse(Buffer.concat(chunks), true, isHead);
        if (parsed) resolve(parsed);
        else
          reject(
            new Error(
              `connection closed without an answer: ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 300))}`,
            ),
          );
      });
      socket.write(bytes, 'utf8');
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function hasHeader(headers: Record<string, unknown>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A complete HTTP/1.1 response in `bytes` (Content-Length or chunked), or undefined while more is to come. */
function parseRawResponse(bytes: Buffer, closed: boolean, isHead: boolean): RawResponse | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers: http.IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(end + 4);
  if (isHead) return { status, headers, text: '', json: undefined };
  const length = headers['content-length'];
  if (length !== undefined) {
    if (body.length < Number(length)) return undefined;
    body = body.subarray(0, Number(length));
  } else if (headers['transfer-encoding'] === 'chunked') {
    const decoded = decodeChunked(body);
    if (!decoded) return undefined;
    body = decoded;
  } else if (!closed) {
    return undefined;
  }
  const text = body.toString('utf8');
  return { status, headers, text, json: parseJson(text) };
}

function decodeChunked(body: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', offset);
    if (lineEnd < 0) return undefined;
    const size = parseInt(body.subarray(offset, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    if (body.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
}
