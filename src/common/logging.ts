import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';

const REQUEST_ID = /^[\w.-]{1,128}$/;

/** JSON lines with a request id, method, path, status and duration; credentials never reach the log. */
export function loggerParams(level: string): Params {
  return {
    pinoHttp: {
      level,
      genReqId: (request: IncomingMessage, response: ServerResponse) => {
        const incoming = request.headers['x-request-id'];
        const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
        response.setHeader('X-Request-Id', id);
        return id;
      },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.secret', '*.key', '*.*.secret'],
        censor: '[redacted]',
      },
      serializers: {
        req: (request: { id: string; method: string; url: string }) => ({
          id: request.id,
          method: request.method,
          path: request.url.split('?')[0],
        }),
        res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
      },
      customSuccessMessage: (request, response, responseTime) =>
        `${request.method} ${request.url?.split('?')[0]} ${response.statusCode} ${Math.round(responseTime)}ms`,
      customErrorMessage: (request, response) => `${request.method} ${request.url?.split('?')[0]} ${response.statusCode}`,
    },
  };
}
