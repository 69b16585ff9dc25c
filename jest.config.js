// Unit tests beside the code (src/…/*.spec.ts), e2e tests on a real database (test/e2e) and the console in
// Chromium (test/browser; skipped, saying why, where there is no Chromium).
module.exports = {
  rootDir: '.',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testRegex: ['src/.*\\.spec\\.ts$', 'test/e2e/.*\\.e2e-spec\\.ts$', 'test/browser/.*\\.browser-spec\\.ts$'],
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
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFiles: ['<rootDir>/test/support/worker-setup.ts'],
  testTimeout: 30000,
};
