import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, Observable } from 'rxjs';
import { ConsoleRequest } from './console-request';
import { FlashMessages } from './flash';
import { Html } from './html';
import { Asset, JsonDownload, PageAnswer, PageWith, SeeOther } from './page-answer';
import { sendPage, seeOther } from './page-response';

/** A year, and immutable: an asset's name changes with its content. */
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * Sends what every console handler answers (page-answer.ts): the one place that writes a console response, its
 * security headers and its flash included. It lends the handler the flash of the request (@Page()), read and
 * cleared only by a page that shows it. The response is complete once sent: Nest's own reply that follows
 * finds it ended and adds nothing.
 */
@Injectable()
export class ConsolePageInterceptor implements NestInterceptor {
  constructor(private readonly flash: FlashMessages) {}

  intercept(context: ExecutionContext, next: CallHandler<PageAnswer>): Observable<undefined> {
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    request.takeFlash = () => this.flash.take(request, response);
    return next.handle().pipe(
      map((answer) => {
        this.send(request, response, answer);
        return undefined;
      }),
    );
  }

  private send(request: ConsoleRequest, response: Response, answer: PageAnswer): void {
    if (answer instanceof Html) return sendPage(response, answer);
    if (answer instanceof PageWith) return sendPage(response, answer.page, answer.options);
    if (answer instanceof SeeOther) {
      if (answer.flash) this.flash.set(request, response, answer.flash);
      return seeOther(response, answer.path);
    }
    if (answer instanceof JsonDownload) return sendDownload(response, answer);
    if (answer instanceof Asset) return sendAsset(response, answer);
    throw new Error('A console handler answers a page, a redirect, a download or an asset');
  }
}

function sendDownload(response: Response, { filename, data }: JsonDownload): void {
  const body = Buffer.from(JSON.stringify(data, null, 2), 'utf8');
  response.status(200);
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  response.setHeader('Content-Length', body.length);
  response.setHeader('Cache-Control', 'no-store');
  response.end(body);
}

function sendAsset(response: Response, { contentType, body }: Asset): void {
  response.status(200);
  response.setHeader('Content-Type', contentType);
  response.setHeader('Content-Length', body.length);
  response.setHeader('Cache-Control', ASSET_CACHE_CONTROL);
  response.end(body);
}
