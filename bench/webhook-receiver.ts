/**
 * The benchmark's webhook receiver: a local HTTPS server that checks each delivery's signature, as a real
 * receiver would, and keeps only what the report needs (counts and latencies), so it can take thousands
 * of deliveries a second. Run as a child of bench/run.ts (on the load generator's core), driven over IPC:
 *
 *   → { type: 'reset' }                  forget everything; latency is counted from the body's `timestamp`
 *   → { type: 'origin', origin: number } count latency from `origin` (epoch ms, e.g. a commit) instead
 *   → { type: 'stats' }                  ← { type: 'stats', stats: ReceiverStats }
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join } from 'node:path';
import { CERT_DIR, readBenchKeys, RECEIVER_PORT } from './bench-env';

export interface ReceiverStats {
  received: number;
  badSignatures: number;
  /** Epoch ms of the first and last delivery since the reset. */
  firstAt: number | null;
  lastAt: number | null;
  /** Milliseconds from the event (or the origin) to its receipt, sorted ascending. */
  latencies: number[];
}

const secrets = new Map(
  readBenchKeys().webhookEndpoints.map((endpoint) => [new URL(endpoint.url).pathname, endpoint.secret]),
);
let origin: number | undefined;
let stats: ReceiverStats = fresh();
/** Receipt times (epoch ms), for latencies from an origin set after the deliveries were committed. */
let receipts: number[] = [];

function fresh(): ReceiverStats {
  return { received: 0, badSignatures: 0, firstAt: null, lastAt: null, latencies: [] };
}

function signatureMatches(path: string, body: Buffer, header: string | string[] | undefined): boolean {
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', secrets.get(path) ?? '')
      .update(body)
      .digest('hex')}`,
  );
  const actual = Buffer.from(typeof header === 'string' ? header : '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const server = createServer(
  {
    key: readFileSync(join(CERT_DIR, 'key.pem')),
    cert: readFileSync(join(CERT_DIR, 'cert.pem')),
    keepAliveTimeout: 5000,
  },
  (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const receivedAt = Date.now();
      const body = Buffer.concat(chunks);
      stats.received += 1;
      stats.firstAt ??= receivedAt;
      stats.lastAt = receivedAt;
      if (!signatureMatches(request.url ?? '', body, request.headers['x-service-signature'])) stats.badSignatures += 1;
      receipts.push(receivedAt);
      stats.latencies.push(
        receivedAt - Date.parse((JSON.parse(body.toString('utf8')) as { timestamp: string }).timestamp),
      );
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  },
);

process.on('message', (message: { type: 'reset' } | { type: 'origin'; origin: number } | { type: 'stats' }) => {
  if (message.type === 'reset') {
    origin = undefined;
    stats = fresh();
    receipts = [];
  } else if (message.type === 'origin') {
    origin = message.origin;
  } else {
    const latencies = origin === undefined ? stats.latencies : receipts.map((receivedAt) => receivedAt - origin!);
    process.send!({ type: 'stats', stats: { ...stats, latencies: latencies.sort((a, b) => a - b) } });
  }
});
process.on('disconnect', () => process.exit(0));

server.listen(RECEIVER_PORT, '127.0.0.1', () => process.send!({ type: 'ready' }));
