// Unit tests beside the code (src/…/*.spec.ts) and e2e tests on a real database (test/e2e).
module.exports = {
  rootDir: '.',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testRegex: ['src/.*\\.spec\\.ts$', 'test/e2e/.*\\.e2e-spec\\.ts$'],
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
