// Nest 12, the AI SDK and several data packages are ESM-only; Jest on Node 20 cannot require() ESM, so swc
// down-levels our TypeScript and every "type": "module" package in node_modules to CommonJS.
const fs = require('node:fs');
const path = require('node:path');

// The node_modules that Node resolves from here: the checkout's own, or the one above Stryker's sandbox when the
// checkout's node_modules is a symbolic link (the sandbox then gets no link of its own).
const nodeModules = path.resolve(require.resolve('jest/package.json'), '../..');

/** Names of "type": "module" packages anywhere in the tree, nested node_modules included. */
function esmPackages(dir = nodeModules, names = new Set()) {
  for (const entry of fs.readdirSync(dir)) {
    if (entry.startsWith('.')) continue;
    const packages = entry.startsWith('@')
      ? fs.readdirSync(path.join(dir, entry)).map((sub) => `${entry}/${sub}`)
      : [entry];
    for (const name of packages) {
      const root = path.join(dir, name);
      try {
        if (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).type === 'module') names.add(name);
      } catch {
        // not a package
      }
      const nested = path.join(root, 'node_modules');
      if (fs.existsSync(nested)) esmPackages(nested, names);
    }
  }
  return [...names];
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
// The dashboard's components (React's automatic JSX runtime) for their component specs.
const swcTsx = {
  ...swcTs,
  jsc: { ...swcTs.jsc, parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } },
};
const swcJs = { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } };

module.exports = {
  testEnvironment: 'node',
  testTimeout: 60000,
  moduleFileExtensions: ['js', 'mjs', 'cjs', 'json', 'ts', 'tsx'],
  roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/dashboard/src'],
  // The dashboard's component specs (`*.component-spec.tsx`) run in jsdom, which each one names in its docblock.
  testRegex: '.*\\.(spec|e2e-spec|medium-spec)\\.ts$|.*\\.component-spec\\.tsx$',
  transform: {
    '^.+\\.ts$': ['@swc/jest', swcTs],
    '^.+\\.tsx$': ['@swc/jest', swcTsx],
    '^.+\\.m?js$': ['@swc/jest', swcJs],
  },
  // The dashboard's stylesheets are the bundler's business: a component spec imports them as nothing.
  moduleNameMapper: { '\\.css$': '<rootDir>/dashboard/src/testing/no-style.ts' },
  // A file is left alone when the package of its innermost node_modules segment is not ESM.
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages().map(escapeRe).join('|')})/)(?!.*/node_modules/)`],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  maxWorkers: 2,
};
