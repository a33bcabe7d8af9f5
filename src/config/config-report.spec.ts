import { describeStorage, unknownVariableWarnings } from './config-report';

describe('unknown variable warnings', () => {
  it('warns of a misspelt variable, naming the one meant', () => {
    expect(unknownVariableWarnings({ DATABSE_URL: 'postgres://db/app', LOGLEVEL: 'debug' })).toEqual([
      'Unknown environment variable DATABSE_URL is ignored (did you mean DATABASE_URL?)',
      'Unknown environment variable LOGLEVEL is ignored (did you mean LOG_LEVEL?)',
    ]);
  });

  it('warns of an unknown variable under a known prefix, with a suggestion when one is close', () => {
    expect(unknownVariableWarnings({ DATABASE_POOL_SIZE: '5', REDIS_PASSWORD: 'x' })).toEqual([
      'Unknown environment variable DATABASE_POOL_SIZE is ignored (did you mean DATABASE_POOL_MAX?)',
      'Unknown environment variable REDIS_PASSWORD is ignored',
    ]);
  });

  it('says nothing of known variables, unrelated ones, and service discovery variables', () => {
    expect(
      unknownVariableWarnings({
        DATABASE_URL: 'postgres://db/app',
        HOME: '/root',
        PATH: '/bin',
        NODE_ENV: 'production',
        OTEL_RESOURCE_ATTRIBUTES: 'a=b',
        HTTP_PROXY: 'http://proxy',
        REDIS_SERVICE_HOST: '10.0.0.1',
        REDIS_PORT: 'tcp://10.0.0.1:6379',
        REDIS_PORT_6379_TCP_ADDR: '10.0.0.1',
        lower_case: 'x',
      }),
    ).toEqual([]);
  });
});

describe('describeStorage', () => {
  it('names hosts, never credentials', () => {
    expect(
      describeStorage({
        databaseUrl: 'postgres://admin:s3cret@db.internal:6543/app?sslmode=require',
        redisUrl: 'rediss://:hunter2@cache.internal',
        dataDir: '/data',
      }),
    ).toEqual({ storage: 'postgres', database: 'db.internal:6543/app', redis: 'cache.internal:6379' });
    expect(describeStorage({ dataDir: '/srv/data' })).toEqual({ storage: 'embedded', database: '/srv/data' });
  });
});
