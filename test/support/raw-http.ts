import type { Socket } from 'node:net';

/** The status and the headers (names in lower case) of an HTTP/1.1 answer's head, as read off a raw socket. */
export function parseHead(head: string): { status: number; headers: Record<string, string> } {
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers };
}

/** A request's head as sent over a raw socket: the request line, `host: localhost` unless given, `headers`. */
export const requestHead = (method: string, path: string, headers: Record<string, string | number>): string =>
  `${method} ${path} HTTP/1.1\r\n` +
  Object.entries({ host: 'localhost', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('') +
  '\r\n';

/**
 * Writes `pieces` to `socket` one by one, each `pauseMs` after the one before (a slow client), while the socket is
 * writable; the timers are added to `timers` so the caller can clear them.
 */
export function writeSpaced(
  socket: Socket,
  pieces: readonly (string | Buffer)[],
  pauseMs: number,
  timers: NodeJS.Timeout[],
): void {
  const writeFrom = (index: number): void => {
    if (index >= pieces.length) return;
    timers.push(
      setTimeout(() => {
        if (!socket.writable) return;
        socket.write(pieces[index]);
        writeFrom(index + 1);
      }, pauseMs),
    );
  };
  writeFrom(0);
}
