import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerService, RequestMethod } from '@nestjs/common';
import { Logger, Params, PinoLogger } from 'nestjs-pino';
import type { LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { AppConfig } from '../config/config';

const REQUEST_ID = /^[\w.-]{1,128}$/;

/**
 * JSON lines with a request id, method, path, status and duration; credentials never reach the log.
 * LOG_FORMAT=pretty (the default when stdout is a terminal) prints the same entries as lines for a person.
 */
export function loggerParams({ logLevel, logFormat }: Pick<AppConfig, 'logLevel' | 'logFormat'>): Params {
  const options = {
    level: logLevel,
    hooks: { logMethod: dropControllerBanners },
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
    customSuccessMessage: (request: IncomingMessage, response: ServerResponse, responseTime: number) =>
      `${request.method} ${request.url?.split('?')[0]} ${response.statusCode} ${Math.round(responseTime)}ms`,
    customErrorMessage: (request: IncomingMessage, response: ServerResponse) =>
      `${request.method} ${request.url?.split('?')[0]} ${response.statusCode}`,
  };
  const format = logFormat ?? (process.stdout.isTTY ? 'pretty' : 'json');
  return {
    pinoHttp: format === 'pretty' ? [options, prettyStream()] : options,
    // Every path, in path-to-regexp v8 syntax (a bare "*" makes Nest warn and convert it at each start).
    forRoutes: [{ path: '/{*path}', method: RequestMethod.ALL }],
  };
}

/**
 * The same logger for what Nest says before the application's own is in place: its start-up, and above
 * all a start-up that fails (a database that cannot be reached), which would otherwise come out in Nest's
 * coloured console format.
 */
export function bootstrapLogger(config: Pick<AppConfig, 'logLevel' | 'logFormat'>): LoggerService {
  const params = loggerParams(config);
  return new Logger(new PinoLogger(params), params);
}

/**
 * For a start-up that fails before the configuration is read or the application exists (a bad variable,
 * a port in use, a database held by another process): the same format as every other log line, at any
 * LOG_LEVEL, since the process is about to exit and this line says why.
 */
export function startupFailureLogger(env: NodeJS.ProcessEnv = process.env): PinoLogger {
  const logFormat = env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty' ? env.LOG_FORMAT : undefined;
  return new PinoLogger(loggerParams({ logLevel: 'info', logFormat }));
}

/** Human-readable lines: time, level, [context] and message, the request id beside request lines. */
function prettyStream() {
  return pretty({
    sync: true,
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context,req,res,responseTime',
    messageFormat: '{if context}[{context}] {end}{msg}{if req.id} (request {req.id}){end}',
  });
}

/**
 * Nest names each controller with the global prefix, even one whose routes are excluded from it
 * ("HealthController {/api/v1/health}" for /health/live); the "Mapped {...}" lines that follow name
 * every route exactly, so the controller line is left out.
 */
const dropControllerBanners: NonNullable<LoggerOptions['hooks']>['logMethod'] = function (args, method) {
  const [bindings] = args as unknown[];
  if ((bindings as { context?: unknown } | undefined)?.context === 'RoutesResolver') return;
  method.apply(this, args);
};
