import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Flash } from '../layout/layout';
import { ConsoleRequest } from './console-request';
import { clearCookie, readCookie, setCookie } from './cookies';
import { ConsoleSealer } from './sealer';

const FLASH_COOKIE = 'console_flash';

/** Long enough for the redirect that follows a form; a flash never outlives it for long. */
const FLASH_MAX_AGE_SECONDS = 60;

/**
 * What a form's result page shows once after its 303 (a message, a value shown only once), carried in a cookie
 * sealed with the service's key and bound to the session: never stored, unreadable to the browser's scripts
 * (HttpOnly) and to anyone who copies it, and gone once shown.
 */
@Injectable()
export class FlashMessages {
  constructor(private readonly sealer: ConsoleSealer) {}

  set(request: ConsoleRequest, response: Response, flash: Flash): void {
    const sealed = this.sealer.seal(JSON.stringify(flash), context(request)).toString('base64url');
    setCookie(response, FLASH_COOKIE, sealed, {
      secure: request.viaHttps === true,
      maxAgeSeconds: FLASH_MAX_AGE_SECONDS,
    });
  }

  /** The flash set for this page, once: it is cleared as it is read. */
  take(request: ConsoleRequest, response: Response): Flash {
    const sealed = readCookie(request, FLASH_COOKIE);
    if (sealed === undefined) return {};
    clearCookie(response, FLASH_COOKIE, { secure: request.viaHttps === true });
    const opened = this.sealer.open(Buffer.from(sealed, 'base64url'), context(request));
    return opened === undefined ? {} : (JSON.parse(opened) as Flash);
  }
}

function context(request: ConsoleRequest): string {
  return `console-flash:${request.viewer?.sessionHash ?? 'no session'}`;
}
