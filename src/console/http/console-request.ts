import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Flash } from '../layout/layout';
import type { ConsoleRole } from '../people/console-role';

/** The signed-in person of a console request, from their session: what the API key is to an API request. */
export interface ConsoleViewer {
  /** SHA-256 of the session id: names the session without being it. */
  sessionHash: string;
  userId: string;
  email: string;
  role: ConsoleRole;
  organisationId: string;
  organisationName: string;
}

export interface ConsoleRequest extends Request {
  /** Set by the console guard on every page that needs a session. */
  viewer?: ConsoleViewer;
  /** The client's address, as the trusted proxies tell it: for the activity log. */
  clientAddress?: string;
  /** Reached over HTTPS (decides the cookies' Secure). */
  viaHttps?: boolean;
  /** Lent by ConsolePageInterceptor: the flash a form's redirect left for this page, read once (@Flashed()). */
  takeFlash?: () => Flash;
}

function viewerOf(context: ExecutionContext): ConsoleViewer {
  const request = context.switchToHttp().getRequest<ConsoleRequest>();
  if (!request.viewer) throw new Error('A console page that needs a session is marked @ConsolePublic()');
  return request.viewer;
}

/** The organisation of the signed-in person; every tenant-scoped call takes it first, as @OrgId() does for the API. */
export const ConsoleOrgId = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => viewerOf(context).organisationId,
);

/** The signed-in person. */
export const Viewer = createParamDecorator((_data: unknown, context: ExecutionContext): ConsoleViewer =>
  viewerOf(context),
);

/** What the form before this page's redirect left to show once (a message, a value shown only once). */
export const Flashed = createParamDecorator((_data: unknown, context: ExecutionContext): Flash => {
  const request = context.switchToHttp().getRequest<ConsoleRequest>();
  if (!request.takeFlash) throw new Error('@Flashed() is for console pages, which ConsolePageInterceptor serves');
  return request.takeFlash();
});

/** The fields of a submitted form (application/x-www-form-urlencoded), read by the console guard. */
export const Form = createParamDecorator((_data: unknown, context: ExecutionContext): FormFields => {
  const body: unknown = context.switchToHttp().getRequest<Request>().body;
  return new FormFields(typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {});
});

/** A form's fields: a text field is its last value; a group of checkboxes is every value sent. */
export class FormFields {
  constructor(private readonly fields: Record<string, unknown>) {}

  text(name: string): string {
    const value = this.fields[name];
    if (Array.isArray(value)) return String(value[value.length - 1] ?? '');
    return typeof value === 'string' ? value : '';
  }

  all(name: string): string[] {
    const value = this.fields[name];
    if (Array.isArray(value)) return value.map(String);
    return typeof value === 'string' ? [value] : [];
  }
}
