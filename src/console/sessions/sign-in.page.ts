import { Html, html } from '../http/html';
import { signedOutPage } from '../layout/layout';

/** What the sign-in page says for a wrong email, a wrong password and a locked email alike. */
export const REFUSED_MESSAGE = 'The email or the password is wrong, or this email is locked for a while. Try again.';

export function signInPage(options: { email?: string; error?: string } = {}): Html {
  return signedOutPage(
    'Sign in',
    html`<form method="post" action="/console/sign-in">
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}" />
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" />
      <button type="submit" class="primary">Sign in</button>
    </form>`,
    { error: options.error },
  );
}

/** The person's organisation signs in at its provider: "Continue" takes them there. */
export function continueWithProviderPage(email: string): Html {
  return signedOutPage(
    'Sign in',
    html`<p>${email} signs in with the organisation’s own sign-in service.</p>
      <form method="post" action="/console/sso/start">
        <input type="hidden" name="email" value="${email}" />
        <button type="submit" class="primary">Continue</button>
      </form>
      <p><a href="/console/sign-in">Use another email</a></p>`,
  );
}
