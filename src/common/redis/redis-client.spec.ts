import { withinRedisDeadline } from './redis-client';

describe('withinRedisDeadline', () => {
  it('passes an answer through', async () => {
    await expect(withinRedisDeadline(Promise.resolve('PONG'), 50)).resolves.toBe('PONG');
  });

  it('passes a failure through', async () => {
    await expect(withinRedisDeadline(Promise.reject(new Error('ERR wrong type')), 50)).rejects.toThrow(
      'ERR wrong type',
    );
  });

  it('gives up on a command that does not answer in time', async () => {
    await expect(withinRedisDeadline(new Promise(() => undefined), 30)).rejects.toThrow(
      'Redis did not answer within 30 ms',
    );
  });

  it('ignores a late answer after giving up', async () => {
    let answer!: (value: string) => void;
    const late = withinRedisDeadline(new Promise<string>((resolve) => (answer = resolve)), 10);
    await expect(late).rejects.toThrow('did not answer');
    answer('OK');
  });
});
