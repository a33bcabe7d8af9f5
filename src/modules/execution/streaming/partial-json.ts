import type * as ProviderUtils from '@ai-sdk/provider-utils';
import type * as AiSdk from 'ai';

/** Where the reader is in the JSON text: the states of the AI SDK's repair of a JSON prefix (its `fixJson`). */
type State =
  | 'ROOT'
  | 'FINISH'
  | 'INSIDE_STRING'
  | 'INSIDE_STRING_ESCAPE'
  | 'INSIDE_STRING_UNICODE_ESCAPE'
  | 'INSIDE_LITERAL'
  | 'INSIDE_NUMBER'
  | 'INSIDE_OBJECT_START'
  | 'INSIDE_OBJECT_KEY'
  | 'INSIDE_OBJECT_AFTER_KEY'
  | 'INSIDE_OBJECT_BEFORE_VALUE'
  | 'INSIDE_OBJECT_AFTER_VALUE'
  | 'INSIDE_OBJECT_AFTER_COMMA'
  | 'INSIDE_ARRAY_START'
  | 'INSIDE_ARRAY_AFTER_VALUE'
  | 'INSIDE_ARRAY_AFTER_COMMA';

const LITERALS = ['true', 'false', 'null'];

/**
 * The JSON text of a streamed answer, read as it arrives: the value so far is what the AI SDK's `parsePartialJson`
 * reads from the whole text (a complete text parsed as it is; otherwise the text cut after its last complete token
 * and closed), but the reader keeps its place between pieces, so each character is read once. The text is parsed
 * only when `value()` is asked for, which the stream does at most once per partial interval: the cost of a stream is
 * proportional to its answer, however many pieces it comes in.
 */
export class PartialJson {
  /** The whole text so far (joined lazily by the engine: appending a piece does not copy it). */
  private text = '';
  private readonly stack: State[] = ['ROOT'];
  /** Index of the last character the repaired text keeps. */
  private lastValidIndex = -1;
  /** The literal being read (`tru`…), from its first character. */
  private literal = '';
  private unicodeEscapeDigits = 0;
  /**
   * An object key held a backslash: the SDK's repair does not read escapes in keys, so it may lose its place in a
   * text that is valid JSON. From then on the whole text is parsed first, as the SDK does.
   */
  private keyEscaped = false;

  /** Reads the next piece of the text. */
  push(piece: string): void {
    const offset = this.text.length;
    for (let index = 0; index < piece.length; index++) this.read(piece[index], offset + index);
    this.text += piece;
  }

  /**
   * The value so far, as `parsePartialJson` reads the whole text (undefined when it cannot be read): the text parsed
   * as it is, else its repair, with the SDK's own parser (which refuses `__proto__` and `constructor.prototype`
   * keys). Parses the text (O(its length), in native code): call it when a partial object is due, not for every piece.
   */
  value(): unknown {
    // A text whose top-level value is closed may be valid JSON as it is. Otherwise it is not (the reader tracks every
    // valid text up to its end), and only its repair can be read.
    if (this.keyEscaped || this.stack[this.stack.length - 1] === 'FINISH') {
      const whole = parsed(this.text);
      if (whole !== UNREADABLE) return whole;
    }
    const repaired = parsed(this.repaired());
    return repaired === UNREADABLE ? undefined : repaired;
  }

  /** The text cut after its last complete token, with what closes it: the SDK's `fixJson` of the whole text. */
  repaired(): string {
    let result = this.text.slice(0, this.lastValidIndex + 1);
    for (let index = this.stack.length - 1; index >= 0; index--) {
      switch (this.stack[index]) {
        case 'INSIDE_STRING':
          result += '"';
          break;
        case 'INSIDE_OBJECT_KEY':
        case 'INSIDE_OBJECT_AFTER_KEY':
        case 'INSIDE_OBJECT_AFTER_COMMA':
        case 'INSIDE_OBJECT_START':
        case 'INSIDE_OBJECT_BEFORE_VALUE':
        case 'INSIDE_OBJECT_AFTER_VALUE':
          result += '}';
          break;
        case 'INSIDE_ARRAY_START':
        case 'INSIDE_ARRAY_AFTER_COMMA':
        case 'INSIDE_ARRAY_AFTER_VALUE':
          result += ']';
          break;
        case 'INSIDE_LITERAL': {
          const literal = LITERALS.find((candidate) => candidate.startsWith(this.literal));
          if (literal) result += literal.slice(this.literal.length);
          break;
        }
        default:
          break;
      }
    }
    return result;
  }

  private top(): State {
    return this.stack[this.stack.length - 1];
  }

  private replaceTop(state: State): void {
    this.stack[this.stack.length - 1] = state;
  }

  private read(char: string, index: number): void {
    switch (this.top()) {
      case 'ROOT':
        this.valueStart(char, index, 'FINISH');
        break;
      case 'INSIDE_OBJECT_START':
        if (char === '"') this.replaceTop('INSIDE_OBJECT_KEY');
        else if (char === '}') this.closeContainer(index);
        break;
      case 'INSIDE_OBJECT_AFTER_COMMA':
        if (char === '"') this.replaceTop('INSIDE_OBJECT_KEY');
        break;
      case 'INSIDE_OBJECT_KEY':
        if (char === '"') this.replaceTop('INSIDE_OBJECT_AFTER_KEY');
        else if (char === '\\') this.keyEscaped = true;
        break;
      case 'INSIDE_OBJECT_AFTER_KEY':
        if (char === ':') this.replaceTop('INSIDE_OBJECT_BEFORE_VALUE');
        break;
      case 'INSIDE_OBJECT_BEFORE_VALUE':
        this.valueStart(char, index, 'INSIDE_OBJECT_AFTER_VALUE');
        break;
      case 'INSIDE_OBJECT_AFTER_VALUE':
        this.afterObjectValue(char, index);
        break;
      case 'INSIDE_STRING':
        if (char === '"') {
          this.stack.pop();
          this.lastValidIndex = index;
        } else if (char === '\\') {
          this.stack.push('INSIDE_STRING_ESCAPE');
        } else {
          this.lastValidIndex = index;
        }
        break;
      case 'INSIDE_ARRAY_START':
        if (char === ']') this.closeContainer(index);
        else this.valueStart(char, index, 'INSIDE_ARRAY_AFTER_VALUE');
        break;
      case 'INSIDE_ARRAY_AFTER_VALUE':
        if (char === ',') this.replaceTop('INSIDE_ARRAY_AFTER_COMMA');
        else if (char === ']') this.closeContainer(index);
        else this.lastValidIndex = index;
        break;
      case 'INSIDE_ARRAY_AFTER_COMMA':
        this.valueStart(char, index, 'INSIDE_ARRAY_AFTER_VALUE');
        break;
      case 'INSIDE_STRING_ESCAPE':
        this.stack.pop();
        if (char === 'u') {
          this.unicodeEscapeDigits = 0;
          this.stack.push('INSIDE_STRING_UNICODE_ESCAPE');
        } else {
          this.lastValidIndex = index;
        }
        break;
      case 'INSIDE_STRING_UNICODE_ESCAPE':
        if (/[0-9A-Fa-f]/.test(char) && ++this.unicodeEscapeDigits === 4) {
          this.stack.pop();
          this.lastValidIndex = index;
        }
        break;
      case 'INSIDE_NUMBER':
        this.inNumber(char, index);
        break;
      case 'INSIDE_LITERAL':
        this.literal += char;
        if (LITERALS.some((literal) => literal.startsWith(this.literal))) {
          this.lastValidIndex = index;
        } else {
          this.stack.pop();
          if (this.top() === 'INSIDE_OBJECT_AFTER_VALUE') this.afterObjectValue(char, index);
          else if (this.top() === 'INSIDE_ARRAY_AFTER_VALUE') this.afterArrayValue(char, index);
        }
        break;
      case 'FINISH':
        break;
    }
  }

  private valueStart(char: string, index: number, after: State): void {
    let inner: State;
    switch (char) {
      case '"':
        inner = 'INSIDE_STRING';
        break;
      case 'f':
      case 't':
      case 'n':
        inner = 'INSIDE_LITERAL';
        this.literal = char;
        break;
      case '-':
        // A sign alone is not a number yet: the repaired text ends before it.
        this.replaceTop(after);
        this.stack.push('INSIDE_NUMBER');
        return;
      case '{':
        inner = 'INSIDE_OBJECT_START';
        break;
      case '[':
        inner = 'INSIDE_ARRAY_START';
        break;
      default:
        if (char >= '0' && char <= '9') {
          inner = 'INSIDE_NUMBER';
          break;
        }
        return;
    }
    this.lastValidIndex = index;
    this.replaceTop(after);
    this.stack.push(inner);
  }

  private inNumber(char: string, index: number): void {
    if (char >= '0' && char <= '9') {
      this.lastValidIndex = index;
      return;
    }
    if (char === 'e' || char === 'E' || char === '-' || char === '.') return;
    this.stack.pop();
    if (char === ',') {
      if (this.top() === 'INSIDE_ARRAY_AFTER_VALUE') this.afterArrayValue(char, index);
      if (this.top() === 'INSIDE_OBJECT_AFTER_VALUE') this.afterObjectValue(char, index);
    } else if (char === '}') {
      if (this.top() === 'INSIDE_OBJECT_AFTER_VALUE') this.afterObjectValue(char, index);
    } else if (char === ']') {
      if (this.top() === 'INSIDE_ARRAY_AFTER_VALUE') this.afterArrayValue(char, index);
    }
  }

  private afterObjectValue(char: string, index: number): void {
    if (char === ',') this.replaceTop('INSIDE_OBJECT_AFTER_COMMA');
    else if (char === '}') this.closeContainer(index);
  }

  private afterArrayValue(char: string, index: number): void {
    if (char === ',') this.replaceTop('INSIDE_ARRAY_AFTER_COMMA');
    else if (char === ']') this.closeContainer(index);
  }

  private closeContainer(index: number): void {
    this.lastValidIndex = index;
    this.stack.pop();
  }
}

/** Whether two JSON values are equal, as the AI SDK compares partial objects. */
export function sameJson(a: unknown, b: unknown): boolean {
  return loadAi().isDeepEqualData(a, b);
}

/** What `parsed` answers for a text that is not JSON (or holds a forbidden key). */
const UNREADABLE = Symbol('unreadable');

function parsed(text: string): unknown {
  try {
    return (require('@ai-sdk/provider-utils') as typeof ProviderUtils).secureJsonParse(text) as unknown;
  } catch {
    return UNREADABLE;
  }
}

// The AI SDK's packages are loaded when a stream first needs them, as the provider adapters load them.

function loadAi(): typeof AiSdk {
  return require('ai') as typeof AiSdk;
}
