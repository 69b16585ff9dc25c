import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Logger } from '@nestjs/common';
import { ErrorCode, errorBody } from './errors';

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

/** Requests in progress on each open connection of a server. */
const requestsInProgress = new WeakMap<Server, Map<Socket, number>>();

function trackRequestsPerConnection(server: Server): void {
  const connections = new Map<Socket, number>();
  requestsInProgress.set(server, connections);
  server.on('connection', (socket: Socket) => {
    connections.set(socket, 0);
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    connections.set(socket, (connections.get(socket) ?? 0) + 1);
    response.once('close', () => connections.has(socket) && connections.set(socket, connections.get(socket)! - 1));
  });
}

/**
 * Closes every connection with no request in progress. Node's own closeIdleConnections() leaves out a
 * connection that has not sent its first request yet (a preconnect), which would hold a draining server open.
 */
export function closeIdleConnections(server: Server): void {
  for (const [socket, inProgress] of requestsInProgress.get(server) ?? []) if (inProgress === 0) socket.destroy();
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
