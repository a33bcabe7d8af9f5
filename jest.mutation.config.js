// Mutation testing (`npm run test:mutation`): only the unit specs of the pure modules that Stryker mutates, so each
// mutant runs in milliseconds; no database template (the global setup) is needed for them.
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/src'],
  testRegex:
    '/(version-compare|key-format|input-validation|cache-key|rate-windows|window-admission|prompt-lifecycle|attempt-plan|attempt-loop)\\.spec\\.ts$',
  globalSetup: undefined,
  testTimeout: 10000,
};
