import { createServer, connect, Server, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a database, to make outages on demand: `stop()` refuses new
 * connections and cuts the open ones (a stopped server), `freeze()` keeps connections open but passes
 * nothing (a server that hangs), `start()` and `thaw()` heal.
 */
export class TcpProxy {
  private server?: Server;
  private readonly pairs = new Set<[Socket, Socket]>();
  private frozen = false;
  port = 0;
  /** Connections accepted so far: a client that gives up on a frozen one shows here as a new one. */
  accepted = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static forUrl(url: string): TcpProxy {
    const parsed = new URL(url);
    return new TcpProxy(parsed.hostname, Number(parsed.port || 5432));
  }

  /** The database URL with its host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  async start(): Promise<this> {
    if (this.server) return this;
    const server = createServer((client) => this.pipe(client));
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(this.port, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    for (const pair of this.pairs) pair.forEach((socket) => socket.destroy());
    this.pairs.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }

  freeze(): void {
    this.frozen = true;
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream).pause();
      upstream.unpipe(client).pause();
    }
  }

  thaw(): void {
    this.frozen = false;
    for (const [client, upstream] of this.pairs) client.pipe(upstream).pipe(client);
  }

  private pipe(client: Socket): void {
    this.accepted += 1;
    const upstream = connect({ host: this.targetHost, port: this.targetPort });
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    for (const socket of pair) {
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.pairs.delete(pair);
        pair.forEach((other) => other.destroy());
      });
    }
    // A frozen server accepts connections and then says nothing.
    if (!this.frozen) client.pipe(upstream).pipe(client);
  }
}
