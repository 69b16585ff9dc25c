import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AppError, NotFoundError } from '../../errors/errors';
import { ConsoleController } from '../http/console-controller.decorator';
import { ConsolePublic, OpenToViewers } from '../http/console-metadata';
import { ConsoleRequest, Form, FormFields } from '../http/console-request';
import { Html } from '../http/html';
import { PageAnswer, PageWith, SeeOther } from '../http/page-answer';
import { messagePage } from '../layout/layout';
import { PeopleService } from '../people/people.service';
import { SsoRefusedError, SsoService } from '../sso/sso.service';
import { continueWithProviderPage, REFUSED_MESSAGE, signInPage } from './sign-in.page';
import { SignInService } from './sign-in.service';
import { WELCOME_PATH } from './welcome-cookie';
import { welcomePage } from './welcome.page';

const UNKNOWN_WELCOME_LINK = notFound(
  messagePage(
    'This welcome link does not work',
    'It was used already, has expired (after 72 hours) or was replaced by a newer one. Ask an admin for a new link.',
  ),
);

const OPEN_WELCOME_LINK_AGAIN = notFound(
  messagePage(
    'Open your welcome link again',
    'This page works for 15 minutes after you open your welcome link, in the browser you opened it in. The link ' +
      'itself works for 72 hours, until a password is chosen with it.',
  ),
);

/** Where a person lands after signing in. */
const HOME = new SeeOther('/console/api-keys');

function notFound(page: Html): PageWith {
  return new PageWith(page, { status: 404 });
}

function refused(email: string, error: string, status: number): PageWith {
  return new PageWith(signInPage({ email, error }), { status });
}

/**
 * Signing in and out: with a password, at the organisation's provider, or with a welcome link. The handlers that
 * start or end a session, or keep a flow or a token in a cookie, lend its service the response for that cookie.
 */
@ConsoleController()
export class SignInController {
  constructor(
    private readonly signIn: SignInService,
    private readonly sso: SsoService,
    private readonly people: PeopleService,
  ) {}

  /** Signed in: the first section; else the guard sends the browser to sign in. */
  @Get()
  home(): SeeOther {
    return HOME;
  }

  @ConsolePublic()
  @Get('sign-in')
  form(): Html {
    return signInPage();
  }

  @ConsolePublic()
  @Post('sign-in')
  async submit(
    @Req() request: ConsoleRequest,
    @Form() form: FormFields,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PageAnswer> {
    const email = form.text('email');
    const outcome = await this.signIn.withPassword(email, form.text('password'), request, response);
    switch (outcome.kind) {
      case 'signed-in':
        return HOME;
      case 'refused':
        return refused(email, REFUSED_MESSAGE, 401);
      case 'single-sign-on': {
        const provider = await this.sso.authorizationOrigin(outcome.organisationId).catch((error: unknown) => {
          if (error instanceof SsoRefusedError) return error;
          throw error;
        });
        if (provider instanceof SsoRefusedError) return refused(email, provider.message, 503);
        return new PageWith(continueWithProviderPage(email.trim()), { formTargets: [provider] });
      }
    }
  }

  /** "Continue": to the provider of the email's organisation, with a new flow (state, nonce, PKCE). */
  @ConsolePublic()
  @Post('sso/start')
  async startSignOn(
    @Req() request: ConsoleRequest,
    @Form() form: FormFields,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PageAnswer> {
    const email = form.text('email');
    const person = await this.people.findByEmail(email).catch(() => null);
    if (!person || !(await this.sso.isConfigured(person.organisationId))) return refused(email, REFUSED_MESSAGE, 401);
    try {
      return new SeeOther(await this.sso.begin(person.organisationId, person.email, request, response));
    } catch (error) {
      if (!(error instanceof SsoRefusedError)) throw error;
      return refused(email, error.message, 503);
    }
  }

  /** The provider sends the browser back here with the code (a top-level GET, so the Lax flow cookie comes along). */
  @ConsolePublic()
  @Get('sso/callback')
  async signOnCallback(
    @Req() request: ConsoleRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PageAnswer> {
    try {
      const person = await this.sso.complete(request, response);
      await this.signIn.withSingleSignOn(person, request, response);
      return HOME;
    } catch (error) {
      if (!(error instanceof SsoRefusedError)) throw error;
      return new PageWith(signInPage({ error: error.message }), { status: 403 });
    }
  }

  @OpenToViewers()
  @Post('sign-out')
  async signOut(@Req() request: ConsoleRequest, @Res({ passthrough: true }) response: Response): Promise<SeeOther> {
    await this.signIn.signOut(request, response);
    return new SeeOther('/console/sign-in');
  }

  /**
   * A welcome link: its token moves into a sealed cookie and the browser to the form's URL, without it (303), so
   * neither the access log, a span, the browser's history nor a Referer holds the token. The link stays unspent.
   */
  @ConsolePublic()
  @Get('welcome/:token')
  async welcome(
    @Param('token') token: string,
    @Req() request: ConsoleRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PageAnswer> {
    if (!(await this.welcomedOrNull(token))) return UNKNOWN_WELCOME_LINK;
    this.signIn.keepWelcomeToken(token, request, response);
    return new SeeOther(WELCOME_PATH);
  }

  @ConsolePublic()
  @Get('welcome')
  async welcomeForm(@Req() request: ConsoleRequest): Promise<PageAnswer> {
    const token = this.signIn.keptWelcomeToken(request);
    if (token === undefined) return OPEN_WELCOME_LINK_AGAIN;
    const person = await this.welcomedOrNull(token);
    if (!person) return UNKNOWN_WELCOME_LINK;
    return welcomePage(person.email, person.organisationName);
  }

  @ConsolePublic()
  @Post('welcome')
  async choosePassword(
    @Req() request: ConsoleRequest,
    @Form() form: FormFields,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PageAnswer> {
    const token = this.signIn.keptWelcomeToken(request);
    if (token === undefined) return OPEN_WELCOME_LINK_AGAIN;
    return this.choose(token, form, request, response);
  }

  /**
   * Deprecated, removed in 6.0.0: where the form of 4.0.0 posts (the token in the path), so a page an instance of
   * 4.0.0 served still works during a rolling update. The access log and spans redact the token here too.
   */
  @ConsolePublic()
  @Post('welcome/:token')
  async choosePasswordAtLink(
    @Param('token') token: string,
    @Req() request: ConsoleRequest,
    @Form() form: FormFields,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PageAnswer> {
    return this.choose(token, form, request, response);
  }

  /** Spends the link and signs the person in; a password the rules refuse shows the form again, the token kept. */
  private async choose(
    token: string,
    form: FormFields,
    request: ConsoleRequest,
    response: Response,
  ): Promise<PageAnswer> {
    try {
      await this.signIn.choosePassword(token, form.text('password'), request, response);
      return HOME;
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 400) throw error;
      const person = await this.signIn.welcomed(token);
      this.signIn.keepWelcomeToken(token, request, response);
      return new PageWith(welcomePage(person.email, person.organisationName, error.message), { status: 400 });
    }
  }

  private welcomedOrNull(token: string) {
    return this.signIn.welcomed(token).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
  }
}
