// Mutation testing of the pure rule modules (`npm run test:mutation`, about 20 minutes; not part of CI). Each mutant is
// type-checked first (mutants that do not compile are not run), then the unit specs run against it through
// jest.mutation.config.js. The HTML report is written to reports/mutation/.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  mutate: [
    'src/modules/versions/version-compare.ts',
    'src/modules/keys/key-format.ts',
    'src/modules/execution/input-validation.ts',
    'src/modules/cache/cache-key.ts',
    'src/modules/rate-limit/rate-windows.ts',
    'src/modules/prompts/prompt-lifecycle.ts',
  ],
  // The sandbox needs only the sources, the configs and node_modules (linked, not copied).
  ignorePatterns: ['dist', 'data', 'coverage', 'reports', 'dashboard', 'bench', 'docs', 'deploy', 'test', '*.tsbuildinfo'],
  testRunner: 'jest',
  jest: { projectType: 'custom', configFile: 'jest.mutation.config.js', enableFindRelatedTests: true },
  // The same Node flags as `npm test`.
  testRunnerNodeArgs: ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning'],
  coverageAnalysis: 'perTest',
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // Two cores are shared with other work; one test runner and one checker keep the machine usable.
  concurrency: 1,
  timeoutMS: 10000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
