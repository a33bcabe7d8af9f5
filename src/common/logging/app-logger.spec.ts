import { AppLogger } from './app-logger';
import { serviceVersion } from './service-version';

/** A logger at `level` writing into an array, one parsed line per entry. */
function recording(level: 'debug' | 'info' | 'warn' | 'error' | 'silent' = 'debug') {
  const lines: Record<string, unknown>[] = [];
  const logger = new AppLogger({ logLevel: level }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('AppLogger', () => {
  it('writes one JSON line with level, time, pid, version, message and fields', () => {
    const { logger, lines } = recording();
    logger.write('warn', 'Cache unavailable', { requestId: 'r-1', context: 'Cache', skipped: undefined });
    expect(lines).toEqual([
      {
        level: 'warn',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        pid: process.pid,
        version: serviceVersion(),
        msg: 'Cache unavailable',
        requestId: 'r-1',
        context: 'Cache',
      },
    ]);
    expect(serviceVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('keeps the stack of an Error passed as the message', () => {
    const { logger, lines } = recording();
    const error = new Error('boom');
    logger.error(error);
    logger.write('error', error, { path: '/x' });
    expect(lines).toEqual([
      expect.objectContaining({ level: 'error', msg: 'boom', stack: error.stack }),
      expect.objectContaining({ level: 'error', msg: 'boom', stack: error.stack, path: '/x' }),
    ]);
  });

  it("takes Nest's (message, stack, context) and (message, context) forms", () => {
    const { logger, lines } = recording();
    logger.error('failed', 'Error: failed\n    at x', 'Keys');
    logger.error('refused', 'Keys');
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'failed', stack: 'Error: failed\n    at x', context: 'Keys' }),
      expect.objectContaining({ msg: 'refused', context: 'Keys' }),
    ]);
    expect(lines[1]).not.toHaveProperty('stack');
  });

  it('redacts keys, tokens and authorization headers wherever a caller puts them', () => {
    const { logger, lines } = recording();
    logger.write('info', 'call', {
      apiKey: 'epa_secret',
      headers: { authorization: 'Bearer epa_secret', 'x-api-key': 'epa_secret', accept: 'json' },
      provider: { token: 'sk-secret', name: 'openai' },
    });
    expect(JSON.stringify(lines)).not.toContain('secret');
    expect(lines[0]).toMatchObject({
      apiKey: '[redacted]',
      headers: { authorization: '[redacted]', 'x-api-key': '[redacted]', accept: 'json' },
      provider: { token: '[redacted]', name: 'openai' },
    });
  });

  it('writes the access line of a request with its fields', () => {
    const { logger, lines } = recording('info');
    logger.access({ requestId: 'r-2', method: 'POST', path: '/api/v1/x', status: 201, durationMs: 3.5 });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'request',
        pid: process.pid,
        requestId: 'r-2',
        method: 'POST',
        path: '/api/v1/x',
        status: 201,
        durationMs: 3.5,
      }),
    ]);
  });

  it("writes Nest's module and route mapping lines at debug, its other lines at their level", () => {
    const { logger, lines } = recording('info');
    logger.log('Mapped {/health, GET} route', 'RouterExplorer');
    logger.log('HealthController {/health}:', 'RoutesResolver');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Created the initial admin key for tenant acme', 'InitialAdminKey');
    expect(lines.map((line) => line.msg)).toEqual(['Created the initial admin key for tenant acme']);
    const debug = recording('debug');
    debug.logger.log('Mapped {/health, GET} route', 'RouterExplorer');
    expect(debug.lines).toEqual([expect.objectContaining({ level: 'debug', context: 'RouterExplorer' })]);
  });

  it('keeps LOG_LEVEL: nothing below it is written, and silent writes nothing', () => {
    const warn = recording('warn');
    warn.logger.write('info', 'skipped');
    warn.logger.access({ requestId: 'r', method: 'GET', path: '/health', status: 200, durationMs: 1 });
    warn.logger.write('error', 'kept');
    expect(warn.lines.map((line) => line.msg)).toEqual(['kept']);
    expect(warn.logger.isEnabled('info')).toBe(false);
    expect(warn.logger.isEnabled('error')).toBe(true);
    const silent = recording('silent');
    silent.logger.write('error', 'nothing');
    expect(silent.lines).toEqual([]);
  });
});
