import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AppError, statusOf } from './app-error';
import { EXECUTION_ERROR_CODES, executionErrorMeaning, publicCodeOf } from './execution-error-codes';

/** The `error` codes of the "Execution errors" table of docs/api.md, in its order. */
function documentedCodes(): string[] {
  const text = readFileSync(join(__dirname, '../../../docs/api.md'), 'utf8');
  const section = text.slice(text.indexOf('### Execution errors'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| Status |')));
  return table
    .split('\n')
    .filter((line) => /^\| \d{3} \|/.test(line))
    .map((line) => /^\| \d{3} \| `([a-z_]+)`/.exec(line)?.[1] ?? line);
}

describe('the execution error codes', () => {
  it('are the codes the API documentation lists', () => {
    expect(documentedCodes()).toEqual(EXECUTION_ERROR_CODES);
  });

  it('each have the status of the error they are answered for', () => {
    for (const code of EXECUTION_ERROR_CODES) {
      const { status, of } = executionErrorMeaning(code);
      expect([code, statusOf({ code: of } as AppError)]).toEqual([code, status]);
    }
  });

  it('are what errors of their kind (and reason) are answered with', () => {
    for (const code of EXECUTION_ERROR_CODES) {
      const { of } = executionErrorMeaning(code);
      const error = (of === code ? { code: of } : { code: of, reason: code }) as AppError;
      expect([code, publicCodeOf(error)]).toEqual([code, code]);
    }
    expect(publicCodeOf({ code: 'conflict' } as AppError)).toBe('conflict');
  });

  it('are documented with the statuses they are answered with', () => {
    const text = readFileSync(join(__dirname, '../../../docs/api.md'), 'utf8');
    for (const code of EXECUTION_ERROR_CODES) {
      expect(text).toContain(`| ${executionErrorMeaning(code).status} | \`${code}\``);
    }
  });
});
