// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The folder graph of src/, one way only, so a new cycle between feature folders fails lint:
 *   positions → ratings → skills, employees → events, common, auth, database, config
 *   webhooks → events, common, auth, database, config
 * Tables are not modules: a repository may join any table, but code reaches another feature's code
 * only along these arrows (README, "Development").
 */
const FEATURES = {
  employees: [],
  skills: [],
  ratings: ['employees', 'skills'],
  positions: ['employees', 'ratings', 'skills'],
  webhooks: [],
};
const FOUNDATION = ['common', 'events', 'auth', 'database', 'config'];
// The application's edges (bootstrap, command line, health, rate limit) may import anything; nothing imports them.
const EDGES = ['src/*.ts', 'src/cli/**', 'src/health/**', 'src/rate-limit/**'];
const folder = (name) => `src/${name}/**`;

const featureZones = Object.entries(FEATURES).map(([feature, allowed]) => ({
  target: folder(feature),
  from: [
    ...Object.keys(FEATURES)
      .filter((other) => other !== feature && !allowed.includes(other))
      .map(folder),
    ...EDGES,
  ],
  message: `${feature}/ may import ${[...allowed, ...FOUNDATION].join(', ')} only (the folder graph in eslint.config.mjs).`,
}));
const foundationZone = (layers) => ({
  target: layers.map(folder),
  from: [...Object.keys(FEATURES).map(folder), ...EDGES],
  message: 'common/, events/, auth/, database/ and config/ import no feature (the folder graph in eslint.config.mjs).',
});
const boundaries = (zones) => ['error', { basePath: import.meta.dirname, zones }];

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
      'import-x/no-restricted-paths': boundaries([...featureZones, foundationZone(FOUNDATION)]),
      // Implementations of promise-returning interfaces need not await anything.
      '@typescript-eslint/require-await': 'off',
      // Nest's HttpStatus is compared with the numbers HttpException reports.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
    },
  },
  {
    // The list of every entity, which the data source needs, is the one place database/ names the features.
    files: ['src/database/entities.ts'],
    rules: {
      'import-x/no-restricted-paths': boundaries([
        ...featureZones,
        foundationZone(FOUNDATION.filter((layer) => layer !== 'database')),
      ]),
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
