import { Html, html } from '../http/html';
import { signedOutPage } from '../layout/layout';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password';
import { WELCOME_PATH } from './welcome-cookie';

/** A welcome link's page, at a URL without its token: the person chooses their password, and is signed in. */
export function welcomePage(email: string, organisationName: string, error?: string): Html {
  return signedOutPage(
    'Welcome',
    html`<p>Choose a password for <strong>${email}</strong> in the console of ${organisationName}.</p>
      <form method="post" action="${WELCOME_PATH}">
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          minlength="${PASSWORD_MIN_LENGTH}"
          maxlength="${PASSWORD_MAX_LENGTH}"
          aria-describedby="password-hint"
        />
        <p class="muted" id="password-hint">${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.</p>
        <button type="submit" class="primary">Choose password</button>
      </form>`,
    { error },
  );
}
