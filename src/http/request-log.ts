import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { requestTraceId } from '../tracing/trace-context';
import { redactUrl, splitTarget } from '../tracing/url-redaction';

const REQUEST_ID = /^[\w.-]{1,128}$/;

/** A request once the first middleware has named it. */
export interface IdentifiedRequest extends IncomingMessage {
  /** The caller's X-Request-Id when it is sane, else a new UUID; sent back on every response. */
  id: string;
  /** The W3C trace the request belongs to: its `traceparent`'s, else a new one (trace-context.ts). */
  traceId: string;
  /** Set by Express: the URL before any router rewrote it. */
  originalUrl?: string;
  /** Set by Express once a route matched: its template (`/api/v1/employees/:id`), relative to `baseUrl`. */
  route?: { path: string };
  baseUrl?: string;
}

/** The route label of a request no route matched (a 404 before routing): never its raw path. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Where each finished request is counted (metrics/metrics.ts), once. */
export interface RequestObserver {
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void;
}

/** The route template a request matched, for metrics labels: never the raw path, which holds ids. */
function routeOf(request: IdentifiedRequest): string {
  const path = request.route?.path;
  return typeof path === 'string' ? `${request.baseUrl ?? ''}${path}` : UNMATCHED_ROUTE;
}

/**
 * How a log line names its request (the access log's fields, and the filter's on a 5xx): its path without the
 * query, and without a secret the path holds (url-redaction.ts, the rule spans follow too).
 */
export function requestFields(request: IdentifiedRequest): { id: string; method?: string; path: string } {
  return {
    id: request.id,
    method: request.method,
    path: redactUrl(splitTarget(request.originalUrl ?? request.url ?? '')).path,
  };
}

/**
 * The first middleware of every request, doing in one place what each request needs before anything can
 * fail: its id (X-Request-Id, on every response, errors included), `Connection: close` while the instance
 * stops (kept-alive clients reconnect to another instance), its trace id, and when the response is done the
 * access log line (id, trace id, method, path, status, duration) and one observation of the request-duration
 * histogram when metrics are on. Nothing is allocated for either when both are off.
 */
export function requestLog(logger: Logger, isStopping: () => boolean, metrics?: RequestObserver) {
  const logs = logger.isLevelEnabled('info');
  return function requestLogMiddleware(request: IdentifiedRequest, response: ServerResponse, next: () => void): void {
    const incoming = request.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    request.id = id;
    request.traceId = requestTraceId(request.headers.traceparent);
    response.setHeader('X-Request-Id', id);
    if (isStopping()) response.setHeader('Connection', 'close');
    if (logs || metrics) {
      const started = performance.now();
      // 'close' comes after 'finish', and also for a response the client gave up on.
      response.once('close', () => {
        const ms = performance.now() - started;
        metrics?.observeRequest(request.method ?? '', routeOf(request), response.statusCode, ms / 1000);
        if (logs) writeAccessLine(logger, request, response, Math.round(ms));
      });
    }
    next();
  };
}

function writeAccessLine(logger: Logger, request: IdentifiedRequest, response: ServerResponse, ms: number): void {
  const req = requestFields(request);
  const status = response.statusCode;
  logger.info(
    { req, res: { statusCode: status }, responseTime: ms, traceId: request.traceId },
    `${req.method} ${req.path} ${status} ${ms}ms${response.writableFinished ? '' : ' (client closed the connection)'}`,
  );
}
