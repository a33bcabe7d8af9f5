import { QueryFailedError } from 'typeorm';
import { NotFoundError, UpstreamError, ValidationError } from '../../common/errors/app-error';
import { AppLogger } from '../../common/logging/app-logger';
import { McpFailure, mcpFailureOf } from './mcp-failure';

/** Records what would be written to the service log. */
class RecordingLogger extends AppLogger {
  readonly lines: { level: string; message: unknown; fields: Record<string, unknown> }[] = [];

  constructor() {
    super({ logLevel: 'debug' });
  }

  override write(level: string, message: unknown, fields: Record<string, unknown> = {}): void {
    this.lines.push({ level, message, fields });
  }
}

describe('mcpFailureOf', () => {
  const failureOf = (thrown: unknown) => {
    const logger = new RecordingLogger();
    const failure = mcpFailureOf(thrown, logger, { tool: 'get_endpoint' });
    expect(failure).toBeInstanceOf(McpFailure);
    return { failure, lines: logger.lines };
  };

  it('answers the service own errors by code and message, with the JSON-RPC code of their kind', () => {
    expect(failureOf(new NotFoundError('Endpoint x not found')).failure).toMatchObject({
      code: -32002,
      message: 'not_found: Endpoint x not found',
    });
    expect(failureOf(new ValidationError(['a is wrong', 'b is wrong'], 'a')).failure).toMatchObject({
      code: -32602,
      message: 'validation_error: a is wrong; b is wrong',
    });
  });

  it('answers a driver error generically and logs it with its stack', () => {
    const driverError = Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' });
    const { failure, lines } = failureOf(new QueryFailedError('SELEC 1', [], driverError));
    expect(failure).toMatchObject({
      code: -32603,
      message: 'internal_error: the request failed; see the service logs',
    });
    expect(lines).toEqual([
      {
        level: 'error',
        message: expect.stringContaining('SELEC'),
        fields: expect.objectContaining({ tool: 'get_endpoint', stack: expect.any(String) }),
      },
    ]);
  });

  it('maps a database value error to a 400-kind error without the driver text', () => {
    const driverError = Object.assign(new Error('invalid input syntax for type uuid: "x"'), { code: '22P02' });
    const { failure } = failureOf(new QueryFailedError('SELECT …', [], driverError));
    expect(failure).toMatchObject({ code: -32602, message: 'validation_error: A value has an invalid format' });
  });

  it('logs what caused an upstream failure and answers only its message', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:8000'), { code: 'ECONNREFUSED' });
    const { failure, lines } = failureOf(
      new UpstreamError("the provider 'local' could not be reached", undefined, { cause }),
    );
    expect(failure.message).toBe("upstream_error: the provider 'local' could not be reached");
    expect(lines).toEqual([
      {
        level: 'warn',
        message: "the provider 'local' could not be reached",
        fields: { tool: 'get_endpoint', cause: cause.message },
      },
    ]);
  });
});
