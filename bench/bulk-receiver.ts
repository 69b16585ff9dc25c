/**
 * The webhook receiver of bench/bulk-load.ts, a child process of its own: its TLS and HTTP work for each
 * delivery is the receiver's, as in production, not work on the service's event loop. Driven over IPC: it
 * answers its port once listening, then the count of deliveries received to every message.
 * Env: BENCH_RECEIVER_TLS, the JSON of { key, cert } (PEM).
 */
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

const { key, cert } = JSON.parse(process.env.BENCH_RECEIVER_TLS ?? '{}') as { key: string; cert: string };
let received = 0;
const server = createServer({ key, cert }, (request, response) => {
  request.resume();
  request.on('end', () => {
    received++;
    response.writeHead(200).end();
  });
});
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
process.on('message', () => process.send!({ received }));
process.on('disconnect', () => server.close(() => process.exit(0)));
