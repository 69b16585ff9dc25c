import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { testCertificate } from './tls';

export interface OidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Everything it printed, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a real OpenID Connect provider (oidc-provider, over HTTPS with the run's test certificate) as a
 * process, with one client whose redirect URI is `redirectUri`; resolves once it listens.
 */
export async function startOidcProvider(redirectUri: string): Promise<OidcProvider> {
  const { key, cert } = testCertificate();
  const clientId = 'skills-console';
  const clientSecret = `secret-${Math.random().toString(36).slice(2)}`;
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'oidc-provider.mjs')], {
    env: {
      PATH: process.env.PATH,
      TLS_KEY: key,
      TLS_CERT: cert,
      CLIENT_ID: clientId,
      CLIENT_SECRET: clientSecret,
      REDIRECT_URI: redirectUri,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  let issuer: string | undefined;
  while (!issuer) {
    issuer = /\{"issuer":"([^"]+)"\}/.exec(output)?.[1];
    if (issuer) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the OpenID provider did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    issuer,
    clientId,
    clientSecret,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
