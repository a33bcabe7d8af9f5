import { databaseOutageWarning } from './database-outage-warning';

class RecordingLogger {
  readonly lines: { level: string; message: unknown; fields?: Record<string, unknown> }[] = [];

  write(level: string, message: unknown, fields?: Record<string, unknown>): void {
    this.lines.push({ level, message, fields });
  }
}

describe('databaseOutageWarning', () => {
  it('warns once per period however many failures, without a stack', () => {
    const logger = new RecordingLogger();
    let time = 1_000_000;
    const warn = databaseOutageWarning(logger, 30_000, () => time);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    for (let i = 0; i < 50; i++) warn(refused);
    time += 29_999;
    warn(refused);
    expect(logger.lines).toEqual([
      {
        level: 'warn',
        message: 'Database unavailable: requests that need it are answered 503 until it is back',
        fields: { context: 'Database', error: 'connect ECONNREFUSED 127.0.0.1:5432' },
      },
    ]);
    time += 1;
    warn(new Error('Connection terminated unexpectedly'));
    expect(logger.lines).toHaveLength(2);
    expect(logger.lines[1].fields).toEqual({ context: 'Database', error: 'Connection terminated unexpectedly' });
    expect(JSON.stringify(logger.lines)).not.toContain('stack');
  });
});
