'use strict';
// Loaded with `--require` into worker threads started from the TypeScript sources (the template render pool under
// Jest): they run outside Jest's transform, so `.ts` files are compiled here with swc, as Jest compiles them.
const fs = require('node:fs');

let swc;
require.extensions['.ts'] = function compileTypeScript(module, filename) {
  swc ??= require('@swc/core');
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
