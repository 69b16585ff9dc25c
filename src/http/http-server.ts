import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Logger } from '@nestjs/common';
import { ErrorCode, errorBody } from '../errors/errors';

/**
 * Settings of the HTTP server itself: idle kept-alive connections last `keepAliveTimeoutMs` (longer than
 * common balancers' idle timeouts, so the balancer closes first), and the errors Node raises before a
 * request reaches the app (headers too large, a malformed request line) get the error envelope too.
 */
export function configureHttpServer(server: Server, keepAliveTimeoutMs: number): void {
  server.keepAliveTimeout = keepAliveTimeoutMs;
  // A request's headers may not take longer than the idle wait before it, or Node drops the connection early.
  server.headersTimeout = keepAliveTimeoutMs + 1000;
  server.on('clientError', answerClientError);
  trackRequestsPerConnection(server);
}

/** Each open connection of a server: its requests in progress, and how many it has received. */
interface ConnectionUse {
  inProgress: number;
  received: number;
}
const connectionsOf = new WeakMap<Server, Map<Socket, ConnectionUse>>();

function trackRequestsPerConnection(server: Server): void {
  const connections = new Map<Socket, ConnectionUse>();
  connectionsOf.set(server, connections);
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { inProgress: 0, received: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const use = connections.get(request.socket);
    if (!use) return;
    use.inProgress += 1;
    use.received += 1;
    response.once('close', () => (use.inProgress -= 1));
  });
}

/**
 * A sweep to call at an interval while a server drains: it closes each connection that was idle at the sweep
 * before and has received nothing since. Node's own closeIdleConnections() leaves out a connection that has
 * not sent its first request yet (a preconnect), which would hold a draining server open; closing one at
 * first sight could reset a request whose bytes have arrived but not been read (the timer runs first after a
 * busy event loop), so a connection gets one poll of the event loop between two sweeps to show its request.
 */
export function idleConnectionSweep(server: Server): () => void {
  let idleBefore = new Map<Socket, number>();
  return () => {
    const idleNow = new Map<Socket, number>();
    for (const [socket, { inProgress, received }] of connectionsOf.get(server) ?? []) {
      if (inProgress > 0) continue;
      if (idleBefore.get(socket) === received) socket.destroy();
      else idleNow.set(socket, received);
    }
    idleBefore = idleNow;
  };
}

const logger = new Logger('HTTP');

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request header fields too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive']
        : [400, 'Malformed HTTP request'];
  const body = JSON.stringify(errorBody(ErrorCode.VALIDATION_ERROR, message));
  const requestId = randomUUID();
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
  logger.warn(`${status} ${message} (${error.code ?? error.message}), request id ${requestId}`);
}
