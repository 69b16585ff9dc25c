import { HttpStatus, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { AppError } from '../../errors/errors';
import { Flash } from '../layout/layout';
import { ConsoleRequest } from './console-request';
import { clearCookie, readCookie, setCookie } from './cookies';
import { seeOther } from './page-response';
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

  /**
   * A form's change, then back to `returnTo` (303) with its result shown once there; a change refused by a rule
   * (400, 409) is shown the same way, as an error, on `refusedTo` when given (the form again). Anything else (404
   * for another organisation's id) goes to the console's error page.
   */
  async changeThenSeeOther(
    request: ConsoleRequest,
    response: Response,
    returnTo: string,
    change: () => Promise<Flash>,
    refusedTo = returnTo,
  ): Promise<void> {
    let flash: Flash;
    let to = returnTo;
    try {
      flash = await change();
    } catch (error) {
      const refused = error instanceof AppError && [HttpStatus.BAD_REQUEST, HttpStatus.CONFLICT].includes(error.status);
      if (!refused) throw error;
      flash = { error: error.message };
      to = refusedTo;
    }
    this.set(request, response, flash);
    seeOther(response, to);
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
