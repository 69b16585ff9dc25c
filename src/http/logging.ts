import { LoggerService } from '@nestjs/common';
import { Logger, Params, PinoLogger } from 'nestjs-pino';
import pino, { DestinationStream, LoggerOptions } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { AppConfig } from '../config/config';

type LogSettings = Pick<AppConfig, 'logLevel' | 'logFormat'>;

/**
 * JSON lines, credentials never in them. LOG_FORMAT=pretty (the default when stdout is a terminal) prints
 * the same entries as lines for a person.
 */
function pinoSettings({ logLevel, logFormat }: LogSettings): [LoggerOptions, DestinationStream?] {
  const options: LoggerOptions = {
    level: logLevel,
    hooks: { logMethod: dropControllerBanners },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.secret', '*.key', '*.*.secret'],
      censor: '[redacted]',
    },
  };
  const format = logFormat ?? (process.stdout.isTTY ? 'pretty' : 'json');
  return format === 'pretty' ? [options, prettyStream()] : [options];
}

/** A pino logger in the service's format: the access log writes with it (request-log.ts). */
export function createPinoLogger(settings: LogSettings): pino.Logger {
  const [options, stream] = pinoSettings(settings);
  return pino(options, stream);
}

/**
 * What Nest itself logs, through nestjs-pino. Its per-request middleware (pino-http, a child logger and an
 * async-hooks context store for every request) is left out, `forRoutes: []`: the access log is one
 * middleware of our own (request-log.ts), and the one log line a request may write besides it, the
 * filter's 5xx, names the request itself.
 */
export function loggerParams(settings: LogSettings): Params {
  const [options, stream] = pinoSettings(settings);
  return { pinoHttp: stream ? [options, stream] : options, forRoutes: [] };
}

/**
 * The same logger for what Nest says before the application's own is in place: its start-up, and above
 * all a start-up that fails (a database that cannot be reached), which would otherwise come out in Nest's
 * coloured console format.
 */
export function bootstrapLogger(config: LogSettings): LoggerService {
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
  // Loaded only for LOG_FORMAT=pretty: a server writing JSON never reads it, and its code would stay in the heap.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pretty = require('pino-pretty') as typeof PinoPretty;
  return pretty({
    sync: true,
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context,req,res,responseTime,traceId',
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
