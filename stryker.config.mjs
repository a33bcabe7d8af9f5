// Mutation testing of the pure rule modules (`npm run test:mutation`; 6 to 13 minutes on two cores, so not part of
// CI). Each mutant is type-checked first (mutants that do not compile are not run), then the unit specs run against it
// through jest.mutation.config.js. The report is written to reports/mutation/index.html.
// Known equivalent mutants (no input tells them apart, so they survive): in input-validation, the UTF-16 length
// pre-check before counting characters (`true` or `>=`), `typeof value === 'number'` ahead of Number.isFinite, and the
// unreachable `case 'image'`; in window-admission, `>=` for `>` in the tie-break (equal remaining and equal reset);
// in attempt-plan, the ProviderError check ahead of reading its status (any other error has none to compare).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  mutate: [
    'src/modules/versions/version-compare.ts',
    'src/modules/keys/key-format.ts',
    'src/modules/execution/input-validation.ts',
    'src/modules/cache/cache-key.ts',
    'src/common/rate-limit/rate-windows.ts',
    'src/common/rate-limit/window-admission.ts',
    'src/modules/prompts/prompt-lifecycle.ts',
    'src/modules/execution/attempt-plan.ts',
  ],
  // The sandbox needs only the sources, the configs and node_modules (linked, not copied).
  ignorePatterns: [
    'dist',
    'data',
    'coverage',
    'reports',
    'dashboard',
    'bench',
    'docs',
    'deploy',
    'test',
    '*.tsbuildinfo',
  ],
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
  timeoutMS: 10000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
