import { serialize } from 'pg-protocol';
import type { BackendMessage, DatabaseError } from 'pg-protocol/dist/messages';
import { Parser } from 'pg-protocol/dist/parser';
import { ProtocolFailure } from './protocol-failure';

function parse(bytes: Uint8Array): BackendMessage[] {
  const messages: BackendMessage[] = [];
  new Parser().parse(Buffer.from(bytes), (message) => messages.push(message));
  return messages;
}

describe('ProtocolFailure', () => {
  it('answers an extended-protocol request with one error, then ReadyForQuery at its Sync', () => {
    const failure = new ProtocolFailure('57P02', 'The embedded database has stopped');
    const request = [
      serialize.parse({ text: 'SELECT 1' }),
      serialize.bind({}),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ];
    // node-postgres' PGlite adapter sends each message on its own.
    const answers = request.flatMap((message) => parse(failure.answer(message)));
    expect(answers.map((message) => message.name)).toEqual(['error', 'readyForQuery']);
    const error = answers[0] as DatabaseError;
    expect(error.code).toBe('57P02');
    expect(error.message).toBe('The embedded database has stopped');
    expect(error.severity).toBe('FATAL');
  });

  it('answers every request after the first the same way, and a simple query with an error and ReadyForQuery', () => {
    const failure = new ProtocolFailure('57P03', 'not open');
    for (let i = 0; i < 2; i++) {
      const answers = parse(failure.answer(Buffer.concat([serialize.parse({ text: 'SELECT 1' }), serialize.sync()])));
      expect(answers.map((message) => message.name)).toEqual(['error', 'readyForQuery']);
    }
    expect(parse(failure.answer(serialize.query('SELECT 1'))).map((message) => message.name)).toEqual([
      'error',
      'readyForQuery',
    ]);
  });

  it('answers nothing to Flush and Terminate', () => {
    const failure = new ProtocolFailure('57P02', 'stopped');
    expect(failure.answer(serialize.flush())).toHaveLength(0);
    expect(failure.answer(serialize.end())).toHaveLength(0);
  });
});
