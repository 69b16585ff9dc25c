import type { Response } from 'express';
import { ConsoleRequest } from '../http/console-request';
import { clearCookie, readCookie, setCookie } from '../http/cookies';
import { ConsoleSealer } from '../http/sealer';

/** Where a welcome link's password form is served, once its token is in the cookie. */
export const WELCOME_PATH = '/console/welcome';

const WELCOME_COOKIE = 'console_welcome';
const WELCOME_CONTEXT = 'console-welcome';

/** How long the cookie holds a token: enough to choose a password; the link itself stays valid for 72 hours. */
export const WELCOME_COOKIE_MS = 15 * 60_000;

interface KeptToken {
  token: string;
  expiresAt: number;
}

/**
 * A welcome link's token, moved out of the URL (so out of the access log, spans, the browser's history and any
 * Referer) into a cookie of WELCOME_PATH only: sealed with the service's key, HttpOnly, for WELCOME_COOKIE_MS.
 */
export function keepWelcomeToken(
  sealer: ConsoleSealer,
  token: string,
  request: ConsoleRequest,
  response: Response,
): void {
  const kept: KeptToken = { token, expiresAt: Date.now() + WELCOME_COOKIE_MS };
  setCookie(response, WELCOME_COOKIE, sealer.seal(JSON.stringify(kept), WELCOME_CONTEXT).toString('base64url'), {
    path: WELCOME_PATH,
    secure: request.viaHttps === true,
    maxAgeSeconds: WELCOME_COOKIE_MS / 1000,
  });
}

/** The token the request's cookie keeps, while it is fresh; undefined without one, or with one not sealed here. */
export function keptWelcomeToken(sealer: ConsoleSealer, request: ConsoleRequest): string | undefined {
  const sealed = readCookie(request, WELCOME_COOKIE);
  const opened = sealed === undefined ? undefined : sealer.open(Buffer.from(sealed, 'base64url'), WELCOME_CONTEXT);
  const kept = opened === undefined ? undefined : (JSON.parse(opened) as KeptToken);
  return kept && kept.expiresAt > Date.now() ? kept.token : undefined;
}

export function forgetWelcomeToken(request: ConsoleRequest, response: Response): void {
  clearCookie(response, WELCOME_COOKIE, { path: WELCOME_PATH, secure: request.viaHttps === true });
}
