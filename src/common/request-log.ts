import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

const REQUEST_ID = /^[\w.-]{1,128}$/;

/** A request once the first middleware has named it. */
export interface IdentifiedRequest extends IncomingMessage {
  /** The caller's X-Request-Id when it is sane, else a new UUID; sent back on every response. */
  id: string;
  /** Set by Express: the URL before any router rewrote it. */
  originalUrl?: string;
}

/** How a log line names its request (the access log's fields, and the filter's on a 5xx). */
export function requestFields(request: IdentifiedRequest): { id: string; method?: string; path: string } {
  const url = request.originalUrl ?? request.url ?? '';
  const query = url.indexOf('?');
  return { id: request.id, method: request.method, path: query === -1 ? url : url.slice(0, query) };
}

/**
 * The first middleware of every request, doing in one place what each request needs before anything can
 * fail: its id (X-Request-Id, on every response, errors included), `Connection: close` while the instance
 * stops (kept-alive clients reconnect to another instance), and the access log line written when the
 * response is done: id, method, path, status and duration. Nothing is allocated for the log when the
 * level leaves it out.
 */
export function requestLog(logger: Logger, isStopping: () => boolean) {
  const logs = logger.isLevelEnabled('info');
  return function requestLogMiddleware(request: IdentifiedRequest, response: ServerResponse, next: () => void): void {
    const incoming = request.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    request.id = id;
    response.setHeader('X-Request-Id', id);
    if (isStopping()) response.setHeader('Connection', 'close');
    if (logs) {
      const started = Date.now();
      // 'close' comes after 'finish', and also for a response the client gave up on.
      response.once('close', () => writeAccessLine(logger, request, response, Date.now() - started));
    }
    next();
  };
}

function writeAccessLine(logger: Logger, request: IdentifiedRequest, response: ServerResponse, ms: number): void {
  const req = requestFields(request);
  const status = response.statusCode;
  logger.info(
    { req, res: { statusCode: status }, responseTime: ms },
    `${req.method} ${req.path} ${status} ${ms}ms${response.writableFinished ? '' : ' (client closed the connection)'}`,
  );
}
