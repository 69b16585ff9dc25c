import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { TestCertificate } from './tls';

export interface ReceivedRequest {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  /** The raw body bytes, as signed. */
  body: Buffer;
  receivedAt: number;
}

export interface Behaviour {
  status?: number;
  delayMs?: number;
  /** Answers only once this settles (then after delayMs): holds the sender's requests for as long as a test needs. */
  until?: Promise<unknown>;
}

/** A real HTTPS server on 127.0.0.1 that records every request; answers per path are configurable. */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private server?: Server;
  private waiters: Array<() => void> = [];

  constructor(private readonly certificate: TestCertificate) {}

  async start(): Promise<this> {
    this.server = createServer({ key: this.certificate.key, cert: this.certificate.cert }, (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        this.requests.push({
          path,
          method: request.method ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks),
          receivedAt: Date.now(),
        });
        this.waiters.forEach((wake) => wake());
        const { status = 200, delayMs = 0, until } = this.behaviours.get(path) ?? {};
        const answer = () => response.writeHead(status, { 'Content-Type': 'text/plain' }).end('ok');
        void Promise.resolve(until).finally(() => setTimeout(answer, delayMs));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  /** A URL on this receiver; each test uses its own path so it only sees its own requests. */
  url(path: string, host = '127.0.0.1'): string {
    return `https://${host}:${this.port}${path}`;
  }

  behave(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  on(path: string): ReceivedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** Waits until `path` has received `count` requests; fails after `timeoutMs`. */
  async waitFor(path: string, count: number, timeoutMs = 10_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.on(path).length < count) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`${path} received ${this.on(path).length} of ${count} requests in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.waiters = [];
    }
    return this.on(path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export interface SignatureCheck {
  body: Buffer;
  signature: string | undefined;
  /** The endpoint's secret; undefined when it was registered without one. */
  secret?: string;
}

/**
 * Verifies signatures with @octokit/webhooks-methods, an independent implementation, in a child node
 * process (it is ESM-only and Jest runs CommonJS). Answers one boolean per check.
 */
export function verifySignatures(checks: SignatureCheck[]): Promise<boolean[]> {
  const input = JSON.stringify(
    checks.map((check) => ({
      body: check.body.toString('utf8'),
      signature: check.signature ?? '',
      secret: check.secret ?? null,
    })),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'webhook-receiver-verify.mjs')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(output) as boolean[]) : reject(new Error(`verifier exited ${code}`)),
    );
    child.stdin.end(input);
  });
}

/** What the receiver of a delivery finds when it checks webhook-signature each way. */
export interface StandardVerification {
  /** The standardwebhooks library, given the base64 of the secret (of 64 zero bytes without one: the same key). */
  library: boolean;
  /** A hand-made HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>", keyed with the secret's UTF-8 bytes. */
  byHand: boolean;
}

/** Checks a received delivery's Standard Webhooks signature with `secret` (undefined: the endpoint has none). */
export function verifyStandardSignature(received: ReceivedRequest, secret?: string): StandardVerification {
  const header = (name: string) => String(received.headers[name] ?? '');
  const key = secret === undefined || secret === '' ? Buffer.alloc(64) : Buffer.from(secret, 'utf8');
  let library: boolean;
  try {
    new Webhook(key.toString('base64')).verify(received.body, {
      'webhook-id': header('webhook-id'),
      'webhook-timestamp': header('webhook-timestamp'),
      'webhook-signature': header('webhook-signature'),
    });
    library = true;
  } catch {
    library = false;
  }
  const expected = Buffer.from(
    `v1,${createHmac('sha256', secret ?? '')
      .update(`${header('webhook-id')}.${header('webhook-timestamp')}.`)
      .update(received.body)
      .digest('base64')}`,
  );
  const byHand = header('webhook-signature')
    .split(' ')
    .some((signature) => signature.length === expected.length && timingSafeEqual(Buffer.from(signature), expected));
  return { library, byHand };
}
