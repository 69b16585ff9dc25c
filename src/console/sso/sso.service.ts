import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { ActivityLog } from '../../audit/activity-log';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { Database } from '../../database/database';
import type { Actor } from '../../database/write-context';
import { AppError, ErrorCode, NotFoundError, ValidationError } from '../../errors/errors';
import { ConsoleRequest } from '../http/console-request';
import { clearCookie, readCookie, setCookie } from '../http/cookies';
import { ConsoleSealer } from '../http/sealer';
import { ConsoleUsersRepository, SignInCandidate } from '../people/console-users.repository';
import { OpenIdClient, openIdClient } from './openid-client';
import { sealingContext, SsoRepository } from './sso.repository';

export interface NewSsoSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** A sign-on the provider or the console refused: the sign-in page says why; nothing is created. */
export class SsoRefusedError extends AppError {
  constructor(message: string) {
    super(HttpStatus.FORBIDDEN, ErrorCode.FORBIDDEN, message);
  }
}

/** What the browser carries from the start of a sign-on to its callback, sealed: PKCE verifier, state, nonce. */
interface SignOnFlow {
  organisationId: string;
  state: string;
  nonce: string;
  verifier: string;
  expiresAt: number;
}

const FLOW_COOKIE = 'console_sso';
const FLOW_COOKIE_PATH = '/console/sso';
const FLOW_CONTEXT = 'console-sso-flow';
/** A sign-on at the provider must come back within this. */
const FLOW_MS = 10 * 60_000;
export const SSO_CALLBACK_PATH = '/console/sso/callback';

/**
 * Single sign-on per organisation with OpenID Connect (docs/api-decisions.md, "Signing in"): the authorization code flow
 * with PKCE (S256), state and nonce, the provider found by discovery from its issuer, through openid-client.
 * The ID token's email must name a person of that organisation's console; nobody is created.
 */
@Injectable()
export class SsoService {
  constructor(
    private readonly settings: SsoRepository,
    private readonly users: ConsoleUsersRepository,
    private readonly sealer: ConsoleSealer,
    private readonly activity: ActivityLog,
    private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The command line's `sso set`: the issuer must be an https URL; the secret is sealed at rest. */
  async set(organisationId: string, settings: NewSsoSettings, actor: Actor): Promise<void> {
    const issuer = checkedIssuer(settings.issuer);
    const clientId = settings.clientId.trim();
    if (clientId === '' || clientId.length > 255) {
      throw ValidationError.forField('client-id', 'A client id has 1 to 255 characters');
    }
    if (settings.clientSecret === '' || settings.clientSecret.length > 1024) {
      throw ValidationError.forField('client-secret', 'A client secret has 1 to 1024 characters');
    }
    const clientSecretSealed = this.sealer.seal(settings.clientSecret, sealingContext(organisationId));
    await this.database.transaction(async (manager) => {
      await this.settings.upsert(organisationId, { issuer, clientId, clientSecretSealed }, new Date(), manager);
      await this.activity.record(organisationId, actor, 'single sign-on set', issuer, manager);
    });
  }

  async remove(organisationId: string, actor: Actor): Promise<void> {
    await this.database.transaction(async (manager) => {
      if (!(await this.settings.delete(organisationId, manager))) throw new NotFoundError('Single sign-on');
      await this.activity.record(organisationId, actor, 'single sign-on removed', null, manager);
    });
  }

  async isConfigured(organisationId: string): Promise<boolean> {
    return (await this.settings.find(organisationId)) !== null;
  }

  /** The origin of the provider's authorization endpoint: the "Continue" form's CSP must allow it. */
  async authorizationOrigin(organisationId: string): Promise<string> {
    const { configuration } = await this.provider(organisationId);
    return new URL(configuration.serverMetadata().authorization_endpoint ?? '').origin;
  }

  /** Starts a sign-on: the flow's secrets go into a sealed cookie; answers the provider's URL to send the browser to. */
  async begin(organisationId: string, loginHint: string, request: ConsoleRequest, response: Response): Promise<string> {
    const { client, configuration } = await this.provider(organisationId);
    const flow: SignOnFlow = {
      organisationId,
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      expiresAt: Date.now() + FLOW_MS,
    };
    const sealed = this.sealer.seal(JSON.stringify(flow), FLOW_CONTEXT).toString('base64url');
    setCookie(response, FLOW_COOKIE, sealed, {
      path: FLOW_COOKIE_PATH,
      secure: request.viaHttps === true,
      maxAgeSeconds: FLOW_MS / 1000,
    });
    return client
      .buildAuthorizationUrl(configuration, {
        redirect_uri: this.callbackUrl(),
        scope: 'openid email',
        code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
        login_hint: loginHint,
      })
      .toString();
  }

  /**
   * The provider's answer at the callback: the code is exchanged (with the verifier, checking state and nonce)
   * and the ID token's email must name a person of the organisation that began the sign-on.
   */
  async complete(request: ConsoleRequest, response: Response): Promise<SignInCandidate> {
    const flow = this.takeFlow(request, response);
    if (!flow) throw new SsoRefusedError('The sign-on expired or was started in another browser: sign in again.');
    const { client, configuration } = await this.provider(flow.organisationId);
    let identity: Record<string, unknown> | undefined;
    try {
      const tokens = await client.authorizationCodeGrant(
        configuration,
        new URL(request.originalUrl, this.config.publicUrl),
        {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        },
      );
      const claims = tokens.claims();
      // Many providers put the email in the ID token only when no access token is issued: else ask userinfo.
      identity =
        claims && typeof claims.email === 'string'
          ? claims
          : await client.fetchUserInfo(configuration, tokens.access_token, claims?.sub ?? client.skipSubjectCheck);
    } catch {
      throw new SsoRefusedError('Your organisation’s sign-in service did not sign you in.');
    }
    const email = typeof identity?.email === 'string' ? identity.email : undefined;
    const person =
      email === undefined || identity?.email_verified === false ? null : await this.users.findByEmail(email);
    if (!person || person.organisationId !== flow.organisationId) {
      const visitor: Actor = {
        type: 'visitor',
        claimed: email ?? 'unknown',
        clientAddress: request.clientAddress ?? null,
      };
      await this.activity.record(
        flow.organisationId,
        visitor,
        'failed sign-in',
        'single sign-on: not a person of this console',
      );
      throw new SsoRefusedError('Your sign-in service signed you in as someone this console does not know.');
    }
    return person;
  }

  private takeFlow(request: ConsoleRequest, response: Response): SignOnFlow | undefined {
    const sealed = readCookie(request, FLOW_COOKIE);
    if (sealed === undefined) return undefined;
    clearCookie(response, FLOW_COOKIE, { path: FLOW_COOKIE_PATH, secure: request.viaHttps === true });
    const opened = this.sealer.open(Buffer.from(sealed, 'base64url'), FLOW_CONTEXT);
    const flow = opened === undefined ? undefined : (JSON.parse(opened) as SignOnFlow);
    return flow && flow.expiresAt > Date.now() ? flow : undefined;
  }

  /** Discovery from the issuer on every sign-on: sign-ons are rare, and a changed provider is seen at once. */
  private async provider(organisationId: string) {
    const settings = await this.settings.find(organisationId);
    if (!settings) throw new SsoRefusedError('Your organisation no longer signs in with single sign-on.');
    const secret = this.sealer.open(settings.clientSecretSealed, sealingContext(organisationId));
    if (secret === undefined) throw new Error('The SSO client secret cannot be opened with SERVICE_SECRET_KEY');
    const client: OpenIdClient = await openIdClient();
    try {
      const configuration = await client.discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        client.ClientSecretBasic(secret),
      );
      return { client, configuration };
    } catch {
      throw new SsoRefusedError('Your organisation’s sign-in service cannot be reached: try again later.');
    }
  }

  private callbackUrl(): string {
    return `${this.config.publicUrl}${SSO_CALLBACK_PATH}`;
  }
}

function checkedIssuer(issuer: string): string {
  let url: URL | undefined;
  try {
    url = new URL(issuer.trim());
  } catch {
    url = undefined;
  }
  if (!url || url.protocol !== 'https:' || url.search || url.hash) {
    throw ValidationError.forField(
      'issuer',
      'The issuer is the provider’s https:// URL, as its discovery document names it',
    );
  }
  return url.toString().replace(/\/$/, '');
}
