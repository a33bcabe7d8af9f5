// The browser suite (`npm run test:browser`): the built dashboard served by the real service on the embedded database,
// driven in Debian's Chromium by playwright-core. One file at a time: each starts a browser and a service.
const base = require('./jest.config');

module.exports = {
  ...base,
  testRegex: '.*\\.browser-spec\\.ts$',
  roots: ['<rootDir>/test/browser'],
  testTimeout: 120000,
  maxWorkers: 1,
};
