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
    const json = JSON.stringify(body instanceof Enveloped ? body.envelope : successEnvelope(body));
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', Buffer.byteLength(json));
    response.end(json);
  }
}
