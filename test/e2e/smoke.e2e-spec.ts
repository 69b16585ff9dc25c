import { describeIfPostgres } from '../support/requirements';
import { ServerProcess, startServer } from '../support/server-process';
import { describeSmoke, smokeEnv } from '../support/smoke';

jest.setTimeout(60_000);

// The subset .ci/mixed-version-pass runs against two releases at once (mixed-version.e2e-spec.ts), here against
// two instances of this build: a failure there that is not here comes from the mix.
describeIfPostgres('the smoke subset against server processes of this build', () => {
  const env = smokeEnv(process.env.TEST_DATABASE_URL!);
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    servers = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(() => Promise.all(servers.map((server) => server.stop())));

  describeSmoke('two instances on one database', () => ({
    origins: servers.map((server) => `http://127.0.0.1:${server.port}`),
    env,
  }));
});
