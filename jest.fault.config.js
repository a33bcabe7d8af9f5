// The fault suite (`npm run test:fault`): servers of its own that the tests stop and start (Redis, PostgreSQL) and the
// built service signalled under load. Not part of `npm test`; one file at a time, since each one loads the machine.
const base = require('./jest.config');

module.exports = {
  ...base,
  testRegex: '.*\\.fault-spec\\.ts$',
  roots: ['<rootDir>/test/fault'],
  globalSetup: undefined,
  testTimeout: 120000,
  maxWorkers: 1,
};
