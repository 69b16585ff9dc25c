// Two projects: unit tests beside the code (src/…/*.spec.ts), which need no database, and end-to-end tests on a real
// database (test/e2e), with the console in Chromium (test/browser; skipped, saying why, where there is no Chromium).
// `npm test` runs both; a path filter (`npm test -- test/e2e`, `npx jest src/events`) runs what it matches, and
// the database is made only when an end-to-end file runs. `--selectProjects unit` or `e2e` picks one.

/** What both projects compile with. */
const shared = {
  rootDir: '.',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        tsconfig: 'tsconfig.json',
        // Node16 module resolution is needed for packages' export maps; the emitted code is CommonJS either way.
        diagnostics: { ignoreCodes: [151002] },
        // The same OpenAPI plugin as `nest build`, so the served document is the one tests check.
        astTransformers: {
          before: ['<rootDir>/test/support/swagger-transformer.js'],
        },
      },
    ],
  },
};

module.exports = {
  testTimeout: 30000,
  projects: [
    { ...shared, displayName: 'unit', testRegex: ['src/.*\\.spec\\.ts$'] },
    {
      ...shared,
      displayName: 'e2e',
      testRegex: ['test/e2e/.*\\.e2e-spec\\.ts$', 'test/browser/.*\\.browser-spec\\.ts$'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFiles: ['<rootDir>/test/support/worker-setup.ts'],
    },
  ],
};
