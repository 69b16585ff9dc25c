/** What a secret of a request's URL is replaced with in the access log and in spans. */
export const REDACTED = '[redacted]';

/** A welcome link (console/sessions): everything after this is the token that lets its holder choose a password. */
const WELCOME_LINK = /^\/console\/welcome\//i;

/** The single sign-on callback (console/sso): its query carries the provider's one-time code and the flow's state. */
const SIGN_ON_CALLBACK = /^\/console\/sso\/callback\/?$/i;

/** A request's URL as a log line or a span may show it: its path, and its query without the `?` when it has one. */
export interface ShownUrl {
  path: string;
  query?: string;
}

/** A request target (`/path?query`) split at its first `?`. */
export function splitTarget(target: string): ShownUrl {
  const separator = target.indexOf('?');
  return separator === -1 ? { path: target } : { path: target.slice(0, separator), query: target.slice(separator + 1) };
}

/**
 * The one rule for secrets in request URLs, which the access log (http/request-log.ts) and the HTTP server spans
 * (tracing.ts) both apply, whatever the log level: a welcome link's token and every value of the single sign-on
 * callback's query are replaced. Case-insensitive, as Express matches routes.
 */
export function redactUrl({ path, query }: ShownUrl): ShownUrl {
  const welcome = WELCOME_LINK.exec(path);
  if (welcome && path.length > welcome[0].length) return { path: `${welcome[0]}${REDACTED}`, query };
  if (query !== undefined && SIGN_ON_CALLBACK.test(path)) {
    const names = query.split('&').map((pair) => pair.split('=', 1)[0]);
    return { path, query: names.map((name) => `${name}=${REDACTED}`).join('&') };
  }
  return { path, query };
}
