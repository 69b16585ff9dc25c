import type { ServerResponse } from 'node:http';
import { ExpressAdapter } from '@nestjs/platform-express';
import { BulkResult } from '../bulk/bulk';
import { Page } from '../pagination/pagination';

/** The body of every successful response, `{success: true, data[, meta]}`: a list's page and a bulk result carry meta. */
export function successEnvelope(result: unknown): object {
  return result instanceof Page || result instanceof BulkResult
    ? { success: true, data: result.items, meta: result.meta }
    : { success: true, data: result ?? null };
}

/**
 * The ETag of a response that carries one versioned resource (an employee, a webhook endpoint: its `data` is an
 * object with an integer `version`), `"<version>"`, as If-Match takes it back; undefined for any other response.
 */
export function entityTagOf(envelope: unknown): string | undefined {
  const data = (envelope as { data?: unknown } | null)?.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const { version } = data as { version?: unknown };
  return Number.isInteger(version) ? `"${version as number}"` : undefined;
}

/** A success envelope made earlier (a kept response replayed): sent as it is. */
export class Enveloped {
  constructor(readonly envelope: unknown) {}
}

/**
 * Express as Nest drives it, except that what a route returns is sent as its success envelope, serialised
 * once and written with its length. Wrapping here rather than in a global interceptor spares every request
 * Nest's interceptor machinery (Observables, an AsyncResource, a deferred promise), and writing here spares it
 * Express's res.json and res.send (ETag, freshness, charset), which no route uses. Errors take the exception
 * filter's path, not this one.
 */
export class EnvelopeExpressAdapter extends ExpressAdapter {
  override reply(response: ServerResponse, body: unknown, statusCode?: number): void {
    if (statusCode) response.statusCode = statusCode;
    const envelope = body instanceof Enveloped ? body.envelope : successEnvelope(body);
    const json = JSON.stringify(envelope);
    const entityTag = entityTagOf(envelope);
    if (entityTag !== undefined) response.setHeader('ETag', entityTag);
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', Buffer.byteLength(json));
    response.end(json);
  }
}
