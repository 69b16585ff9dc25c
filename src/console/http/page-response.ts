import type { Response } from 'express';
import { Html } from './html';

/**
 * No script, style, font or image from anywhere but the service, no inline script or style, no framing, forms
 * only to the console (or, on the single sign-on step, to the organisation's provider).
 */
export function contentSecurityPolicy(formTargets: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    `form-action ${["'self'", ...formTargets].join(' ')}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface PageOptions {
  status?: number;
  /** Origins besides the service's a form of this page may be sent to (through a redirect). */
  formTargets?: readonly string[];
}

/**
 * Sends a console page. Helmet has set the other security headers already (app.setup.ts); Referrer-Policy is
 * same-origin here rather than no-referrer, so the browser sends its Origin with the console's own forms, and
 * pages are never cached: some show a secret once.
 */
export function sendPage(response: Response, page: Html, options: PageOptions = {}): void {
  const body = Buffer.from(page.text, 'utf8');
  response.status(options.status ?? 200);
  response.setHeader('Content-Type', 'text/html; charset=utf-8');
  response.setHeader('Content-Length', body.length);
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Content-Security-Policy', contentSecurityPolicy(options.formTargets));
  response.setHeader('Referrer-Policy', 'same-origin');
  response.end(body);
}

/** After a form: 303, so the browser GETs the page and a reload sends nothing again. */
export function seeOther(response: Response, path: string): void {
  response.status(303);
  response.setHeader('Location', path);
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Content-Length', 0);
  response.end();
}
