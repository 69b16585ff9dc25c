// @ts-check
import { readdirSync } from 'node:fs';
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The folder graph of src/, one way only: each folder may import the folders listed for it and nothing else
 * of src/ (README, "Development"). Tables are not modules: a repository may join any table, but code reaches
 * another folder's code only along these arrows. A folder missing here fails lint, and so does a cycle the
 * arrows would allow (`scripts/check-folder-cycles.mjs`, run by `npm run lint`).
 */
// The shared pieces below the features, each in a folder named for what it is, lowest first.
const SHARED = {
  config: [],
  errors: [],
  // The keys derived from the service secret, and secrets sealed at rest (AES-256-GCM) with them.
  encryption: ['config'],
  // The one normalisation of names every comparison of skill and alias names uses (and the migration stores).
  names: [],
  database: ['errors', 'names'],
  tracing: ['config'],
  validation: ['errors'],
  pagination: ['config', 'encryption', 'errors', 'validation'],
  bulk: ['database', 'errors', 'validation'],
  openapi: ['errors', 'pagination'],
  http: ['bulk', 'config', 'database', 'errors', 'pagination', 'tracing', 'validation'],
};
const FOUNDATION = Object.keys(SHARED);
const FOLDERS = {
  ...SHARED,
  retention: FOUNDATION,
  // The activity log, which every feature that changes what people manage writes to in its own transaction.
  audit: [...FOUNDATION, 'retention'],
  auth: [...FOUNDATION, 'audit'],
  events: [...FOUNDATION, 'auth', 'retention'],
  idempotency: [...FOUNDATION, 'auth', 'events', 'retention'],
  metrics: FOUNDATION,
  // Versions of resources: If-Match and Base-Version, checked against one resource's events in the feed.
  versions: [...FOUNDATION, 'events'],
  employees: [...FOUNDATION, 'auth', 'events', 'idempotency', 'retention', 'skills', 'versions'],
  skills: [...FOUNDATION, 'auth', 'events', 'idempotency', 'retention', 'versions'],
  ratings: [...FOUNDATION, 'auth', 'events', 'idempotency', 'retention', 'employees', 'skills'],
  positions: [...FOUNDATION, 'auth', 'events', 'retention', 'employees', 'ratings', 'skills'],
  webhooks: [...FOUNDATION, 'audit', 'auth', 'events', 'idempotency', 'retention', 'metrics', 'versions'],
  // Erasure and the personal-data export run the redactions and reads of every feature that holds a person.
  privacy: [
    ...FOUNDATION,
    'audit',
    'auth',
    'events',
    'idempotency',
    'retention',
    'employees',
    'ratings',
    'positions',
    'skills',
    'webhooks',
    'versions',
  ],
  // GET …/history: one resource's events, for the resources it names.
  history: [...FOUNDATION, 'auth', 'events', 'versions'],
  health: [...FOUNDATION, 'auth', 'metrics'],
  'rate-limit': [...FOUNDATION, 'auth', 'metrics'],
  // The Settings and data pages: their own people, sessions and guard; they call the services of the features they show.
  console: [
    ...FOUNDATION,
    'audit',
    'auth',
    'events',
    'retention',
    'webhooks',
    'employees',
    'ratings',
    'positions',
    'privacy',
    'skills',
  ],
  // The routes outside /api/v1 (the root, the OpenAPI document), which name the API's prefix.
  root: [...FOUNDATION, 'auth', 'src/openapi.ts'],
  // The command line composes the application, as the entry points do.
  cli: ['*'],
};
const target = (name) => (name.endsWith('.ts') ? name : `src/${name}/**`);
// The entry points and the composition at the root (src/*.ts) may import anything; only the listed folders import them.
const ROOT_FILES = readdirSync(new URL('src', import.meta.url)).filter((name) => name.endsWith('.ts'));

const folderZones = Object.entries(FOLDERS)
  .filter(([, allowed]) => !allowed.includes('*'))
  .map(([folder, allowed]) => ({
    target: target(folder),
    from: [
      ...Object.keys(FOLDERS)
        .filter((other) => other !== folder && !allowed.includes(other))
        .map(target),
      // `from` takes globs only: the root files this folder may not import, as one brace pattern.
      `src/{${ROOT_FILES.filter((file) => !allowed.includes(`src/${file}`)).join(',')}}`,
    ],
    message: `${folder}/ may import ${allowed.join(', ') || 'nothing of src/'} only (the folder graph in eslint.config.mjs).`,
  }));
const unlisted = readdirSync(new URL('src', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !(entry.name in FOLDERS))
  .map((entry) => entry.name);
if (unlisted.length > 0) throw new Error(`eslint.config.mjs: add src/${unlisted.join(', src/')} to FOLDERS`);

export default tseslint.config(
  {
    // test/openapi-client/ needs the client its test generates, so only that test type-checks it (strictly).
    ignores: ['dist/', 'coverage/', 'bench/results/', 'data/', 'test/openapi-client/', '**/*.js', '**/*.mjs'],
  },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  importX.flatConfigs.recommended,
  importX.flatConfigs.typescript,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'],
          'newlines-between': 'never',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: folderZones }],
      // Implementations of promise-returning interfaces need not await anything.
      '@typescript-eslint/require-await': 'off',
      // Nest's HttpStatus is compared with the numbers HttpException reports.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
    },
  },
  {
    // Issue 20: transactions through TypeORM's public API and the service's own state, values as parameters.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['typeorm/subscriber/*'], message: "Database.afterCommit, not TypeORM's broadcaster events." },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='isTransactionActive']",
          message: 'Ask Database.inTransaction: the service knows the transactions it runs.',
        },
        {
          selector: "Identifier[name='escapeLiteral']",
          message: 'Send values as parameters, not spliced into SQL.',
        },
      ],
    },
  },
  {
    // Tests read untyped JSON bodies (supertest answers `any`): asserting on them is the point.
    files: ['test/**/*.ts', 'src/**/*.spec.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  prettier,
);
