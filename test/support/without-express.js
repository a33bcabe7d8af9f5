'use strict';
// Loaded with `--require` into the built service to run it as a production install without the optional
// @nestjs/platform-express package: resolving that package (by require or import) fails as a missing package does.
const { registerHooks } = require('node:module');

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === '@nestjs/platform-express' || specifier.startsWith('@nestjs/platform-express/')) {
      const error = new Error(`Cannot find package '${specifier}'`);
      error.code = 'ERR_MODULE_NOT_FOUND';
      throw error;
    }
    return nextResolve(specifier, context);
  },
});
