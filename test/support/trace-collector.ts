import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP/HTTP collector reduced to what tests need: the bodies POSTed to /v1/traces (span attributes are plain bytes in them). */
export class TraceCollector {
  readonly bodies: Buffer[] = [];
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') this.bodies.push(Buffer.concat(chunks));
      response.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Resolves once a body holds every one of `parts` (spans are sent in batches, ids as raw bytes). */
  async waitFor(parts: Buffer[], timeoutMs = 15_000): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const body = Buffer.concat(this.bodies);
      if (parts.every((part) => body.includes(part))) return body;
      if (Date.now() > deadline) throw new Error(`the collector never received ${parts.map(String).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
