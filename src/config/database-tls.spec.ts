import { pgSslOption, resolveDatabaseTls, tlsModeOfSetting, withoutTlsModeParameters } from './database-tls';

describe('database TLS', () => {
  it.each([
    ['true', 'verify-full'],
    ['1', 'verify-full'],
    ['false', 'disable'],
    ['0', 'disable'],
    ['disable', 'disable'],
    ['require', 'require'],
    ['Verify-CA', 'verify-ca'],
    [' verify-full ', 'verify-full'],
    ['prefer', undefined],
    ['yes', undefined],
  ])('reads DATABASE_SSL=%s as %s', (value, mode) => {
    expect(tlsModeOfSetting(value)).toBe(mode);
  });

  it.each([
    ['sslmode=disable', 'disable'],
    ['sslmode=require', 'require'],
    ['sslmode=no-verify', 'require'],
    ['sslmode=verify-ca', 'verify-ca'],
    ['sslmode=VERIFY-FULL', 'verify-full'],
    ['ssl=true', 'verify-full'],
    ['ssl=0', 'disable'],
    ['application_name=x', undefined],
  ])('honours %s in the URL', (query, mode) => {
    expect(resolveDatabaseTls(undefined, `postgres://u:p@db/app?${query}`)).toEqual({ mode, problems: [] });
  });

  it('leaves the mode unset when neither says, so the driver default (PGSSLMODE) applies', () => {
    expect(resolveDatabaseTls(undefined, 'postgres://db/app')).toEqual({ mode: undefined, problems: [] });
    expect(resolveDatabaseTls(undefined, undefined)).toEqual({ mode: undefined, problems: [] });
  });

  it('refuses sslmode values that fall back to plain TCP, and a setting the URL contradicts', () => {
    expect(resolveDatabaseTls(undefined, 'postgres://db/app?sslmode=prefer').problems).toEqual([
      'DATABASE_URL sslmode=prefer is not supported: use disable, require, verify-ca or verify-full',
    ]);
    expect(resolveDatabaseTls('false', 'postgres://db/app?sslmode=require').problems).toEqual([
      'DATABASE_SSL (disable) and the sslmode of DATABASE_URL (require) disagree',
    ]);
    expect(resolveDatabaseTls('sometimes', undefined).problems).toHaveLength(1);
  });

  it('gives node-postgres the ssl option of each mode', () => {
    expect(pgSslOption(undefined)).toBeUndefined();
    expect(pgSslOption('disable')).toBe(false);
    expect(pgSslOption('require')).toEqual({ rejectUnauthorized: false });
    const verifyCa = pgSslOption('verify-ca') as { rejectUnauthorized: boolean; checkServerIdentity: () => unknown };
    expect(verifyCa.rejectUnauthorized).toBe(true);
    expect(verifyCa.checkServerIdentity()).toBeUndefined();
    expect(pgSslOption('verify-full')).toEqual({ rejectUnauthorized: true });
  });

  it('takes the mode parameters out of the URL once a mode is resolved, keeping the rest', () => {
    const url = 'postgres://u:p%40ss@db:5433/app?sslmode=require&application_name=pg&sslrootcert=/ca.pem';
    expect(withoutTlsModeParameters(url, 'require')).toBe(
      'postgres://u:p%40ss@db:5433/app?application_name=pg&sslrootcert=%2Fca.pem',
    );
    expect(withoutTlsModeParameters(url, undefined)).toBe(url);
  });
});
