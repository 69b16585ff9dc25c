import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Actor, WriteContext } from '../../database/write-context';
import type { Flash } from '../layout/layout';
import type { ConsoleRole } from '../people/console-role';
import { consoleActor, consoleWrite } from './console-write';

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
  /** Lent by ConsolePageInterceptor: the flash a form's redirect left for this page, read once (@Page()). */
  takeFlash?: () => Flash;
}

function viewerOf(context: ExecutionContext): ConsoleViewer {
  const request = context.switchToHttp().getRequest<ConsoleRequest>();
  if (!request.viewer) throw new Error('A console page that needs a session is marked @ConsolePublic()');
  return request.viewer;
}

/** What a page's handler reads: the organisation, the signed-in person, and the flash (taken only when read). */
export interface ConsolePage {
  organisationId: string;
  viewer: ConsoleViewer;
  readonly flash: Flash;
}

/**
 * A console page's context. The organisation is the signed-in person's; every tenant-scoped call takes it first,
 * as @OrgId() does for the API.
 */
export const Page = createParamDecorator((_data: unknown, context: ExecutionContext): ConsolePage => {
  const viewer = viewerOf(context);
  const request = context.switchToHttp().getRequest<ConsoleRequest>();
  let flash: Flash | undefined;
  return {
    organisationId: viewer.organisationId,
    viewer,
    get flash() {
      if (!request.takeFlash) throw new Error('Page().flash is for console pages, which ConsolePageInterceptor serves');
      return (flash ??= request.takeFlash());
    },
  };
});

/** What a form's handler reads: the organisation, the fields sent, and the signed-in person as the change's actor. */
export interface ConsoleChange {
  organisationId: string;
  form: FormFields;
  /** For the services that take the actor alone (keys, people). */
  actor: Extract<Actor, { type: 'console' }>;
  /** For the services the API's routes call with @Write(). */
  write: WriteContext;
}

/** A submitted console form's context (a form without a session, as signing in, reads @Form() and the request). */
export const Change = createParamDecorator((_data: unknown, context: ExecutionContext): ConsoleChange => {
  const request = context.switchToHttp().getRequest<ConsoleRequest>();
  return {
    organisationId: viewerOf(context).organisationId,
    form: formOf(request),
    actor: consoleActor(request),
    write: consoleWrite(request),
  };
});

function formOf(request: Request): FormFields {
  const body: unknown = request.body;
  return new FormFields(typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {});
}

/** The fields of a submitted form (application/x-www-form-urlencoded), read by the console guard. */
export const Form = createParamDecorator((_data: unknown, context: ExecutionContext): FormFields =>
  formOf(context.switchToHttp().getRequest<Request>()),
);

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
