// Lint for the service (src), its tests (test) and the dashboard (dashboard/src): typescript-eslint's type-checked
// recommended rules, each file checked against the tsconfig.json nearest to it. Formatting is Prettier's job, so no
// stylistic rule is enabled here. Which module may import which is checked by dependency-cruiser
// (.dependency-cruiser.cjs); the import rules below are the ones it cannot see, because they name imported symbols.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Nest's HTTP exceptions: services throw AppError subclasses, and each surface's filter picks the status. */
const HTTP_EXCEPTIONS = [
  'HttpException',
  'BadRequestException',
  'UnauthorizedException',
  'ForbiddenException',
  'NotFoundException',
  'ConflictException',
  'GoneException',
  'PayloadTooLargeException',
  'UnprocessableEntityException',
  'InternalServerErrorException',
  'BadGatewayException',
  'ServiceUnavailableException',
  'GatewayTimeoutException',
];

/** Only repositories (and the database wiring that opens transactions) hold an EntityManager. */
const ENTITY_MANAGER = {
  name: 'typeorm',
  importNames: ['EntityManager'],
  message: 'Only repositories and src/database use the EntityManager; services call repository methods.',
};

export default tseslint.config(
  {
    ignores: ['dist/**', 'dashboard/dist/**', 'coverage/**', 'node_modules/**', 'dashboard/src/api/schema.d.ts'],
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'dashboard/src/**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore marks a parameter kept for its position or a loop variable only counted (`for (const _ of
      // text)` counts code points without building an array), and a destructured field next to a rest element is how
      // a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // An async method without await is how an implementation of a Promise-returning interface (LlmClient, the rate
      // limit store, fakes in tests) turns what it throws into a rejection, which its callers handle.
      '@typescript-eslint/require-await': 'off',
      // Passing on a rejection or error exactly as it was received (typed unknown) is not inventing a non-Error one.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Optional packages (PGlite, the provider SDKs, the MCP SDK) are loaded with require() where they are first used,
      // in synchronous code: module loading is most of the start-up time, and a deployment uses few of them.
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.repository.ts', 'src/database/**', 'src/**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [ENTITY_MANAGER] }] },
  },
  {
    files: ['src/modules/**/*.service.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ENTITY_MANAGER,
            {
              name: '@nestjs/common',
              importNames: HTTP_EXCEPTIONS,
              message: 'Services throw AppError subclasses (src/common/errors); the filters map them to a status.',
            },
            { name: 'express', message: 'Services never see the HTTP request or response.' },
            { name: 'fastify', message: 'Services never see the HTTP request or response.' },
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON answers (supertest's `body`, parsed MCP results, logged rows, `expect.any()`) as `any`; their
    // assertions are what check the shape, so typing each answer first would only repeat them.
    files: ['test/**/*.ts', 'src/**/*.spec.ts', 'dashboard/src/**/*.spec.ts', 'dashboard/src/**/*.component-spec.tsx'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // `expect(fake.method).toHaveBeenCalled()` passes a method without calling it.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['dashboard/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      // React ignores what an event handler returns, and the dashboard's async handlers catch their own failures
      // (shown with <Problems>), so `onClick={() => save()}` is fine; a promise passed anywhere else is still checked.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
);
