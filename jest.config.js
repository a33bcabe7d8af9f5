// Nest 12, the AI SDK and several data packages are ESM-only; Jest on Node 20 cannot require() ESM, so swc
// down-levels our TypeScript and every "type": "module" package in node_modules to CommonJS.
const fs = require('node:fs');
const path = require('node:path');

function esmPackages(dir = path.join(__dirname, 'node_modules')) {
  const names = [];
  for (const entry of fs.readdirSync(dir)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      for (const sub of fs.readdirSync(path.join(dir, entry))) names.push(`${entry}/${sub}`);
    } else {
      names.push(entry);
    }
  }
  return names.filter((name) => {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, name, 'package.json'), 'utf8'));
      return pkg.type === 'module';
    } catch {
      return false;
    }
  });
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const swcTs = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};
const swcJs = { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } };

module.exports = {
  testEnvironment: 'node',
  testTimeout: 60000,
  moduleFileExtensions: ['js', 'mjs', 'cjs', 'json', 'ts'],
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
  transform: { '^.+\\.ts$': ['@swc/jest', swcTs], '^.+\\.m?js$': ['@swc/jest', swcJs] },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages().map(escapeRe).join('|')})/)`],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  maxWorkers: 2,
};
