import { HttpStatus } from '@nestjs/common';
import { AppError } from '../../errors/errors';
import { Flash } from '../layout/layout';
import { Html } from './html';
import { PageOptions } from './page-response';

/** A page with a status other than 200, or other origins its form may go to. */
export class PageWith {
  constructor(
    readonly page: Html,
    readonly options: PageOptions,
  ) {}
}

/** 303 to a console path, with what that page shows once (a flash). */
export class SeeOther {
  constructor(
    readonly path: string,
    readonly flash?: Flash,
  ) {}
}

/** A JSON file the browser downloads (the personal-data export). */
export class JsonDownload {
  constructor(
    readonly filename: string,
    readonly data: unknown,
  ) {}
}

/** A file of the console's own (stylesheet, script), cached for good. */
export class Asset {
  constructor(
    readonly contentType: string,
    readonly body: Buffer,
  ) {}
}

/** What a console handler answers; ConsolePageInterceptor sends it, so no handler touches the response. */
export type PageAnswer = Html | PageWith | SeeOther | JsonDownload | Asset;

/**
 * A form's change, then back to `returnTo` (303) with its result shown once there; a change refused by a rule
 * (400, 409) is shown the same way, as an error, on `refusedTo` when given (the form again). Anything else (404
 * for another organisation's id) goes to the console's error page.
 */
export async function changeThenSeeOther(
  returnTo: string,
  change: () => Promise<Flash>,
  refusedTo = returnTo,
): Promise<SeeOther> {
  try {
    return new SeeOther(returnTo, await change());
  } catch (error) {
    const refused = error instanceof AppError && [HttpStatus.BAD_REQUEST, HttpStatus.CONFLICT].includes(error.status);
    if (!refused) throw error;
    return new SeeOther(refusedTo, { error: error.message });
  }
}
