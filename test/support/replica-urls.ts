/**
 * Set by the CI pass that reads on a replica (.ci/run): the replicas' host:port, comma-separated. Every app and
 * server the tests start then gets DATABASE_REPLICA_URLS naming the same database on each.
 */
export const REPLICA_HOSTS_ENV = 'TEST_DATABASE_REPLICA_HOSTS';

/** DATABASE_REPLICA_URLS for `databaseUrl` in a run on replicas (REPLICA_HOSTS_ENV), else undefined. */
export function replicaUrlsFor(databaseUrl: string | undefined): string | undefined {
  const hosts = process.env[REPLICA_HOSTS_ENV];
  if (!hosts || !databaseUrl) return undefined;
  return hosts
    .split(',')
    .map((host) => {
      const url = new URL(databaseUrl);
      url.host = host.trim();
      return url.toString();
    })
    .join(',');
}
