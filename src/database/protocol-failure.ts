/**
 * Answers PostgreSQL protocol messages the way a server that has gone away does, for a database that cannot run them
 * (the embedded database's thread has ended): each request gets one ErrorResponse carrying the SQLSTATE, and each Sync
 * or simple Query a ReadyForQuery, so node-postgres fails the query in flight with that error and stays usable for the
 * next one (which fails the same way) instead of waiting forever.
 */
export class ProtocolFailure {
  /** An error was answered since the last Sync: the rest of that request is skipped, as a server does. */
  private isSkippingToSync = false;

  constructor(
    private readonly code: string,
    private readonly message: string,
  ) {}

  answer(request: Uint8Array): Uint8Array {
    const parts: Buffer[] = [];
    const bytes = Buffer.from(request.buffer, request.byteOffset, request.byteLength);
    for (let offset = 0; offset + 5 <= bytes.length; offset += 1 + bytes.readInt32BE(offset + 1)) {
      const type = String.fromCharCode(bytes[offset]);
      if (type === 'X' || type === 'H') continue; // Terminate and Flush answer nothing
      if (!this.isSkippingToSync) parts.push(errorResponse(this.code, this.message));
      this.isSkippingToSync = true;
      if (type === 'S' || type === 'Q') {
        parts.push(READY_FOR_QUERY);
        this.isSkippingToSync = false;
      }
    }
    return Buffer.concat(parts);
  }
}

const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]); // 'Z', length 5, idle

function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.concat([
    field('S', 'FATAL'),
    field('V', 'FATAL'),
    field('C', code),
    field('M', message),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header.write('E', 0, 'latin1');
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}

function field(type: string, value: string): Buffer {
  return Buffer.concat([Buffer.from(type, 'latin1'), Buffer.from(value, 'utf8'), Buffer.from([0])]);
}
