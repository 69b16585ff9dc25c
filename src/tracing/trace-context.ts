import { randomUUID } from 'node:crypto';

/** W3C Trace Context: version-traceId-parentId-flags; a later version may append fields, version ff is invalid. */
const TRACEPARENT = /^(?!ff)[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(?:-.*)?$/;
const ALL_ZERO = /^0+$/;

/** The trace id of a valid `traceparent` header, else undefined (all-zero ids are invalid). */
export function traceIdFromTraceparent(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = TRACEPARENT.exec(header);
  if (!match || ALL_ZERO.test(match[1]) || ALL_ZERO.test(match[2])) return undefined;
  return match[1];
}

/** The trace of the span running now; set by tracing.ts only when the OpenTelemetry SDK is loaded. */
let activeTraceId: () => string | undefined = () => undefined;

/** Sends the spans still batched; set by tracing.ts only when the OpenTelemetry SDK is loaded. */
let flush: () => Promise<void> = () => Promise.resolve();

/** Called by tracing.ts once the SDK runs: where trace ids come from, and how to flush before exit. */
export function useTracing(activeTrace: () => string | undefined, flushSpans: () => Promise<void>): void {
  activeTraceId = activeTrace;
  flush = flushSpans;
}

/** Before the process exits: the spans still batched go out (a no-op without the SDK). */
export function flushTraces(): Promise<void> {
  return flush().catch(() => undefined);
}

/**
 * The trace a request belongs to: the SDK's span when tracing is on (which honoured `traceparent` already),
 * else the caller's `traceparent`, else a new 16-byte id (a random UUID's 122 random bits: cheap, never zero).
 */
export function requestTraceId(traceparent: string | string[] | undefined): string {
  return activeTraceId() ?? traceIdFromTraceparent(traceparent) ?? randomUUID().replaceAll('-', '');
}
