import { createServer, Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { TestCertificate } from './tls';

/**
 * A real HTTPS server on 127.0.0.1 that accepts connections, reads every request and never answers: a receiver
 * that hangs. It counts the connections open at once as a receiver sees them, from the TLS handshake to the
 * close (a sender's new connection completes its handshake only after the server has read the close of one
 * the sender ended before it).
 */
export class HangingReceiver {
  /** The X-Service-Delivery of every request read, in order. */
  readonly deliveries: string[] = [];
  private readonly open = new Set<TLSSocket>();
  private mostOpen = 0;
  private server?: Server;

  constructor(private readonly certificate: TestCertificate) {}

  async start(): Promise<this> {
    const server = createServer({ key: this.certificate.key, cert: this.certificate.cert }, (request) => {
      request.resume();
      request.once('end', () => this.deliveries.push(String(request.headers['x-service-delivery'])));
    });
    server.on('secureConnection', (socket: TLSSocket) => {
      this.open.add(socket);
      this.mostOpen = Math.max(this.mostOpen, this.open.size);
      socket.once('close', () => this.open.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    return this;
  }

  url(path: string): string {
    return `https://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}`;
  }

  /** Connections open now. */
  get openConnections(): number {
    return this.open.size;
  }

  /** The most connections that were open at once since the start. */
  get mostOpenAtOnce(): number {
    return this.mostOpen;
  }

  /** Closes every connection (the senders' requests fail at once) and stops listening. */
  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    for (const socket of this.open) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
