// Which file may import which: the service's layering, checked by `npm run lint` (depcruise). Rules that depend on the
// imported names (the EntityManager, Nest's HTTP exceptions) live in eslint.config.mjs, which sees them.
/** A module folder under src/modules, captured so that a rule can say "another module" ($1). */
const MODULE = '^src/modules/([^/]+)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make the load order decide what is defined; a forwardRef means a boundary is wrong.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Every import resolves to a file or an installed package.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'src-not-to-tests',
      severity: 'error',
      comment: 'The service never imports its tests or their support code.',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { path: ['^test/', '\\.spec\\.ts$'] },
    },
    {
      name: 'service-not-to-cli',
      severity: 'error',
      comment: 'The CLI calls the services, never the other way round (main.ts starts its control socket).',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/main\\.ts$'] },
      to: { path: '^src/cli/' },
    },
    {
      name: 'common-not-to-modules',
      severity: 'error',
      comment: 'src/common holds what every module shares, so it depends on no module (its tests may use them).',
      from: { path: '^src/common/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'config-not-to-modules',
      severity: 'error',
      comment: 'Configuration is read and validated before any module exists.',
      from: { path: '^src/config/' },
      to: { path: ['^src/modules/', '^src/database/', '^src/common/'] },
    },
    {
      name: 'controller-not-to-repository',
      severity: 'error',
      comment: 'Controllers call their service; SQL lives behind it in the repository.',
      from: { path: '\\.controller\\.ts$' },
      to: { path: '\\.repository\\.ts$' },
    },
    {
      name: 'controller-not-to-other-services',
      severity: 'error',
      comment: "A controller calls its own module's services; other modules are reached through them.",
      from: { path: `${MODULE}.+\\.controller\\.ts$` },
      to: { path: '^src/modules/[^/]+/.+\\.service\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'not-to-other-repositories',
      severity: 'error',
      comment: 'Each module owns its tables: only its own files use its repositories (others call its services).',
      from: { path: MODULE },
      to: { path: '^src/modules/[^/]+/.+\\.repository\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'repository-entity-own-module-only',
      severity: 'error',
      comment:
        "A repository uses TypeORM and its own module's entities, and an entity refers to another module's rows by " +
        'id columns only (the foreign keys live in the migrations).',
      from: { path: `${MODULE}.+\\.(repository|entity)\\.ts$` },
      to: { path: '^src/modules/', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'not-to-other-entities',
      severity: 'error',
      comment:
        "An entity is its module's row: other modules read its data through its services, and the types they share " +
        '(plans, field data types) from a file of their own.',
      from: { path: MODULE },
      to: { path: '^src/modules/[^/]+/.+\\.entity\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'execution-uses-its-stages-only',
      severity: 'error',
      comment:
        'Execution runs a call through endpoints, prompts, versions, models, llm, the cache, rate limits, spend ' +
        'budgets and logs (and hears of changes through invalidation); it reaches no other module.',
      from: { path: '^src/modules/execution/' },
      to: {
        path: '^src/modules/',
        pathNot:
          '^src/modules/(execution|endpoints|prompts|versions|models|llm|cache|rate-limit|budgets|logs|invalidation)/',
      },
    },
    {
      name: 'prompts-uses-endpoints-versions-models-only',
      severity: 'error',
      comment:
        'A prompt belongs to an endpoint, keeps versions and names a model (and its caches hear of changes through ' +
        'invalidation); its changes are recorded in prompt-events, whose lists name the keys that made them. ' +
        "Exception: llm's call-settings, the one definition of the custom-parameter rule that both a prompt's " +
        'validation and the model call apply.',
      from: { path: '^src/modules/prompts/' },
      to: {
        path: '^src/modules/',
        pathNot: [
          '^src/modules/(prompts|endpoints|versions|models|invalidation|prompt-events|keys)/',
          '^src/modules/llm/call-settings\\.ts$',
        ],
      },
    },
    {
      name: 'datasets-uses-its-sources-only',
      severity: 'error',
      comment:
        "A dataset belongs to an endpoint, copies executions read through the logs, checks items' inputs with " +
        "execution's input validator (a pure function), judge models against the model list and rubrics with the " +
        "prompts' Liquid parser; it reaches no other module.",
      from: { path: '^src/modules/datasets/' },
      to: {
        path: '^src/modules/',
        pathNot: [
          '^src/modules/(datasets|endpoints|logs|models)/',
          '^src/modules/execution/input-validation\\.ts$',
          '^src/modules/prompts/(prompts\\.module|template/template\\.service)\\.ts$',
        ],
      },
    },
    {
      name: 'keys-uses-tenants-endpoints-only',
      severity: 'error',
      comment:
        'A key belongs to a tenant and may be scoped to endpoints (and its cache hears of revocations through ' +
        'invalidation); it reaches no other module.',
      from: { path: '^src/modules/keys/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/(keys|tenants|endpoints|invalidation)/' },
    },
    {
      name: 'key-checked-once',
      severity: 'error',
      comment:
        'A key is checked once, by the pre-body check (wired in app.setup.ts and provided by common.module.ts); ' +
        "guards and controllers read the principal from the request's context.",
      from: {
        path: '^src/',
        pathNot: [
          '^src/common/auth/(key-authenticator|pre-body-auth\\.middleware)\\.ts$',
          '^src/common/common\\.module\\.ts$',
          '^src/app\\.setup\\.ts$',
        ],
      },
      to: { path: '^src/common/auth/key-authenticator\\.ts$' },
    },
    {
      name: 'rate-limit-internals',
      severity: 'error',
      comment:
        'Rate limiting is one module (common/rate-limit): others use its guard, @RateLimit, the RateLimiter port, ' +
        'the MCP call limits and the settings; its windows, storages and admission stay inside it.',
      from: { path: '^src/', pathNot: '^src/common/rate-limit/' },
      to: {
        path: '^src/common/rate-limit/(rate-limit\\.store|rate-windows|window-admission|surface-windows|rate-limit\\.service)\\.ts$',
      },
    },
    {
      name: 'surface-rules-in-the-table',
      severity: 'error',
      comment:
        "Which surface a path belongs to and its rules are read from common/http/surface.ts; the pre-body check's " +
        'module is imported by the request hook alone.',
      from: { path: '^src/', pathNot: ['^src/app\\.setup\\.ts$', '^src/common/auth/'] },
      to: { path: '^src/common/auth/pre-body-auth\\.middleware\\.ts$' },
    },
    {
      name: 'versions-not-to-prompts',
      severity: 'error',
      comment: 'Versions are immutable rows that prompts read (restoring a version is a prompts operation).',
      from: { path: '^src/modules/versions/' },
      to: { path: '^src/modules/prompts/' },
    },
    {
      name: 'only-execution-to-execution',
      severity: 'error',
      comment:
        'Execution sits on top: it uses endpoints, prompts, versions, models, llm, cache and logs (and the rate ' +
        'limits of common/), and none of them depends on it.',
      from: { path: '^src/modules/(endpoints|prompts|versions|models|llm|cache|budgets|logs)/' },
      to: { path: '^src/modules/execution/' },
    },
    {
      name: 'prompts-one-way',
      severity: 'error',
      comment: 'Prompts use endpoints, versions and models; none of those depends on prompts.',
      from: { path: '^src/modules/(endpoints|versions|models)/' },
      to: { path: '^src/modules/prompts/' },
    },
    {
      name: 'prompt-events-below-its-writers',
      severity: 'error',
      comment:
        'The history of prompts and endpoints is written by both modules inside their own transactions, so it ' +
        'depends on no module.',
      from: { path: '^src/modules/prompt-events/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/prompt-events/' },
    },
    {
      name: 'keys-one-way',
      severity: 'error',
      comment: 'Keys belong to tenants; tenants know nothing of keys.',
      from: { path: '^src/modules/tenants/' },
      to: { path: '^src/modules/keys/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^dist/', '^dashboard/dist/', 'node_modules'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
  },
};
