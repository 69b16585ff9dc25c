import type { Request, Response } from 'express';

/** Every cookie of the console lives under /console, so the API's requests never carry one. */
export const CONSOLE_COOKIE_PATH = '/console';

export interface CookieOptions {
  /** Seconds; absent: until the browser closes. */
  maxAgeSeconds?: number;
  secure: boolean;
  path?: string;
}

/** The value of one cookie of the request, or undefined; a malformed escape is no cookie. */
export function readCookie(request: Request, name: string): string | undefined {
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0 || pair.slice(0, separator).trim() !== name) continue;
    try {
      return decodeURIComponent(pair.slice(separator + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** HttpOnly and SameSite=Lax always (docs/api-decisions.md, "Sessions"); Secure when the console is reached over HTTPS. */
export function setCookie(response: Response, name: string, value: string, options: CookieOptions): void {
  const attributes = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path ?? CONSOLE_COOKIE_PATH}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (options.maxAgeSeconds !== undefined) attributes.push(`Max-Age=${options.maxAgeSeconds}`);
  if (options.secure) attributes.push('Secure');
  response.append('Set-Cookie', attributes.join('; '));
}

export function clearCookie(response: Response, name: string, options: Omit<CookieOptions, 'maxAgeSeconds'>): void {
  setCookie(response, name, '', { ...options, maxAgeSeconds: 0 });
}
