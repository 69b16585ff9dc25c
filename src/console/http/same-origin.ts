import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether a request that changes something comes from another site (docs/api-decisions.md, "Requests that change
 * something"): its Origin names another origin than the console's; or, without a usable Origin, its
 * Sec-Fetch-Site is not same-origin. An Origin of "null" (an opaque origin, or a page sent with
 * Referrer-Policy no-referrer) counts only with Sec-Fetch-Site: same-origin. A request with neither header
 * comes from no browser, so it carries no browser's cookie by surprise, and is let through.
 */
export function comesFromAnotherSite(headers: IncomingHttpHeaders, ownOrigins: readonly string[]): boolean {
  const origin = headers.origin;
  if (origin !== undefined && origin !== 'null') return !ownOrigins.includes(origin.toLowerCase());
  const site = headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin';
  return origin === 'null';
}
