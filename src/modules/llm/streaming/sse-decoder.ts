const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;

/** What an event stream's reader is handed for each event: its name (`message` when it gives none) and its data. */
export type SseEventHandler = (name: string, data: string) => void;

/**
 * The framing of server-sent events, read incrementally from the bytes of a body as they arrive: lines end with LF,
 * CR or CRLF (a CRLF may be cut between two chunks), `data:` lines of one event are joined with LF, `event:` names it,
 * comments (`:`) and other fields are skipped, and a blank line dispatches an event that has data. A chunk may end
 * anywhere, inside a line or a multi-byte UTF-8 character: a line is decoded only once it is whole, and line ends are
 * ASCII, so a character is never cut. A BOM at the start of the stream is dropped.
 */
export class SseDecoder {
  /** The start of a line that the next chunk completes. */
  private partial: Buffer | null = null;
  /** The last chunk ended with CR: an LF at the start of the next one ends nothing. */
  private afterCr = false;
  private first = true;
  private name = '';
  private data = '';
  private hasData = false;

  constructor(private readonly onEvent: SseEventHandler) {}

  push(chunk: Buffer): void {
    let bytes = chunk;
    if (this.partial) {
      bytes = Buffer.concat([this.partial, chunk]);
      this.partial = null;
    }
    let start = 0;
    if (this.afterCr) {
      this.afterCr = false;
      if (bytes.length > 0 && bytes[0] === LF) start = 1;
    }
    if (this.first) {
      // A BOM is told from the first three bytes, whatever chunks they come in.
      if (bytes.length - start < 3 && bytes.indexOf(LF, start) === -1 && bytes.indexOf(CR, start) === -1) {
        this.partial = bytes.subarray(start);
        return;
      }
      this.first = false;
      if (bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) start += 3;
    }
    const end = bytes.length;
    // Almost every provider ends its lines with LF alone: one native search per line.
    if (bytes.indexOf(CR, start) === -1) {
      for (;;) {
        const newline = bytes.indexOf(LF, start);
        if (newline === -1) break;
        this.line(bytes, start, newline);
        start = newline + 1;
      }
    } else {
      let index = start;
      while (index < end) {
        const byte = bytes[index];
        if (byte !== LF && byte !== CR) {
          index++;
          continue;
        }
        this.line(bytes, start, index);
        if (byte === CR) {
          if (index + 1 === end) this.afterCr = true;
          else if (bytes[index + 1] === LF) index++;
        }
        start = ++index;
      }
    }
    if (start < end) this.partial = start === 0 ? bytes : bytes.subarray(start);
  }

  /**
   * The end of the body: an event not followed by its blank line is not dispatched, as a browser's EventSource does
   * not dispatch it either.
   */
  end(): void {
    this.partial = null;
    this.data = '';
    this.hasData = false;
  }

  private line(bytes: Buffer, start: number, end: number): void {
    if (start === end) {
      this.dispatch();
      return;
    }
    const first = bytes[start];
    if (first === COLON) return;
    // `data: ` and `event: `, the fields every provider sends, are recognised without decoding their names.
    if (first === 100 && end - start >= 5 && bytes[start + 1] === 97 && bytes[start + 2] === 116) {
      if (bytes[start + 3] === 97 && bytes[start + 4] === COLON) {
        this.field('data', valueOf(bytes, start + 5, end));
        return;
      }
    } else if (first === 101 && end - start >= 6 && bytes[start + 5] === COLON && bytes[start + 1] === 118) {
      if (bytes.toString('latin1', start, start + 5) === 'event') {
        this.field('event', valueOf(bytes, start + 6, end));
        return;
      }
    }
    const colon = bytes.indexOf(COLON, start);
    if (colon === -1 || colon >= end) this.field(bytes.toString('utf8', start, end), '');
    else this.field(bytes.toString('utf8', start, colon), valueOf(bytes, colon + 1, end));
  }

  private field(name: string, value: string): void {
    if (name === 'data') {
      if (this.hasData) this.data += `\n${value}`;
      else {
        this.data = value;
        this.hasData = true;
      }
    } else if (name === 'event') {
      this.name = value;
    }
    // `id` and `retry` concern a reconnecting EventSource; nothing reconnects here.
  }

  private dispatch(): void {
    const name = this.name;
    this.name = '';
    if (!this.hasData) return;
    const data = this.data;
    this.data = '';
    this.hasData = false;
    this.onEvent(name === '' ? 'message' : name, data);
  }
}

/** A field's value: what follows its colon, less one leading space. */
function valueOf(bytes: Buffer, start: number, end: number): string {
  if (start < end && bytes[start] === SPACE) start++;
  return start === end ? '' : bytes.toString('utf8', start, end);
}
