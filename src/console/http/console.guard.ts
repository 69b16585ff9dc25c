import { CanActivate, ExecutionContext, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import express, { Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { AppError, ErrorCode, ValidationError } from '../../errors/errors';
import { SessionsService } from '../sessions/sessions.service';
import { ClientFactsReader } from './client';
import { ConsoleForbiddenError, SignInRequiredError } from './console-errors';
import { CONSOLE_PUBLIC, OPEN_TO_VIEWERS } from './console-metadata';
import { ConsoleRequest } from './console-request';
import { comesFromAnotherSite } from './same-origin';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** The console's forms are a few short fields. */
const MAX_FORM_BYTES = 16 * 1024;

const parseForm = express.urlencoded({ extended: false, limit: MAX_FORM_BYTES, parameterLimit: 100 });

/**
 * Every console request, in this order: a change (anything but GET and HEAD) from another site is 403, whatever
 * its cookie; then the session, looked up in the database (none: sign in); then a change needs the admin role
 * (a viewer's forged change is 403) unless the route is @OpenToViewers(); only then is a form read. Bound to
 * the console's controllers only (@ConsoleController), so API requests never run it.
 */
@Injectable()
export class ConsoleGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
    private readonly clients: ClientFactsReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    const targets = [context.getHandler(), context.getClass()];
    const client = this.clients.read(request);
    request.clientAddress = client.address;
    request.viaHttps = client.https;
    const changes = !SAFE_METHODS.has(request.method);
    if (changes && comesFromAnotherSite(request.headers, this.ownOrigins(request, client.https))) {
      throw new ConsoleForbiddenError('Changes are accepted only from the console’s own pages');
    }
    if (!this.reflector.getAllAndOverride<boolean>(CONSOLE_PUBLIC, targets)) {
      const viewer = await this.sessions.resolve(request);
      if (!viewer) throw new SignInRequiredError();
      request.viewer = viewer;
      if (changes && viewer.role !== 'admin' && !this.reflector.getAllAndOverride<boolean>(OPEN_TO_VIEWERS, targets)) {
        throw new ConsoleForbiddenError('Only an admin may change this');
      }
    }
    if (changes) await readForm(request, context.switchToHttp().getResponse<Response>());
    return true;
  }

  /** The origin the browser sees (its Host, over HTTP or HTTPS as the connection says) and PUBLIC_URL's. */
  private ownOrigins(request: ConsoleRequest, https: boolean): string[] {
    const host = request.headers.host;
    const origins = [this.config.publicUrl.toLowerCase()];
    if (host) origins.push(`${https ? 'https' : 'http'}://${host.toLowerCase()}`);
    return origins;
  }
}

/** A urlencoded form into request.body; any other body is left unread, and the page sees no fields. */
async function readForm(request: ConsoleRequest, response: Response): Promise<void> {
  request.body = {};
  await new Promise<void>((resolve, reject) =>
    parseForm(request, response, (error?: unknown) => {
      if (!error) return resolve();
      const type = (error as { type?: string }).type;
      reject(
        type === 'entity.too.large'
          ? new AppError(HttpStatus.PAYLOAD_TOO_LARGE, ErrorCode.PAYLOAD_TOO_LARGE, 'The form exceeds 16 KiB')
          : new ValidationError('The form could not be read'),
      );
    }),
  );
}
