import type { ApiKeySummary } from '../../auth/api-keys.repository';
import { API_SCOPES } from '../../auth/scopes';
import { ConsoleViewer } from '../http/console-request';
import { Html, html } from '../http/html';
import { formatTime } from '../layout/format';
import { Flash, signedInPage } from '../layout/layout';
import { table, toolbar } from '../layout/table';

/** The choices of "Expires", in days; absent: never. */
export const EXPIRY_DAYS = [7, 30, 90, 365] as const;

type KeyStatus = 'active' | 'expired' | 'revoked';

function keyStatus(key: ApiKeySummary, now: Date): KeyStatus {
  if (key.revokedAt !== null) return 'revoked';
  return key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}

function keyRow(key: ApiKeySummary, admin: boolean, now: Date): Html {
  const status = keyStatus(key, now);
  const revoke =
    admin && status === 'active'
      ? html`<form method="get" action="/console/api-keys/${key.id}/revoke">
          <button type="submit" class="danger">Revoke</button>
        </form>`
      : '';
  return html`<tr>
    <td data-label="Name" class="break">${key.name ?? html`<span class="muted">no name</span>`}</td>
    <td data-label="Scopes">${key.scopes.join(', ')}</td>
    <td data-label="Created">${formatTime(key.createdAt)}</td>
    <td data-label="Expires">${formatTime(key.expiresAt)}</td>
    <td data-label="Last used">${formatTime(key.lastUsedAt)}</td>
    <td data-label="Status"><span class="status status-${status}">${status}</span></td>
    ${admin ? html`<td class="actions">${revoke}</td>` : ''}
  </tr>`;
}

/** The organisation's keys, oldest first; an admin gets "Create API key" and "Revoke" on each active key. */
export function apiKeysPage(viewer: ConsoleViewer, keys: ApiKeySummary[], flash: Flash, now: Date): Html {
  const admin = viewer.role === 'admin';
  return signedInPage(
    viewer,
    'API keys',
    'API keys',
    html`<p class="muted">
        Keys call the API at <code>/api/v1</code>. A key is shown once, when it is made; the service keeps only its
        hash.
      </p>
      ${admin ? toolbar('/console/api-keys/new', 'Create API key') : ''}
      ${table(
        [
          'Name',
          'Scopes',
          'Created',
          'Expires',
          'Last used',
          'Status',
          admin ? html`<span class="visually-hidden">Revoke</span>` : null,
        ].filter((column) => column !== null),
        keys,
        (key) => keyRow(key, admin, now),
        { empty: html`<p>No keys yet.</p>` },
      )}`,
    flash,
  );
}

/** "Create API key": a name, the scopes (every one the service knows, all ticked) and when it expires. */
export function newApiKeyPage(viewer: ConsoleViewer, flash: Flash): Html {
  const scopes = API_SCOPES.map(
    (scope) =>
      html`<label class="check"><input type="checkbox" name="scopes" value="${scope}" checked /> ${scope}</label>`,
  );
  const expiries = EXPIRY_DAYS.map((days) => html`<option value="${days}">${days} days</option>`);
  return signedInPage(
    viewer,
    'API keys',
    'Create API key',
    html`<form method="post" action="/console/api-keys" class="card">
      <label for="key-name">Name</label>
      <input id="key-name" name="name" type="text" maxlength="200" required />
      <fieldset>
        <legend>Scopes</legend>
        <div class="checks">${scopes}</div>
      </fieldset>
      <label for="key-expires">Expires</label>
      <select id="key-expires" name="expires">
        <option value="never">never</option>
        ${expiries}
      </select>
      <div class="buttons">
        <button type="submit" class="primary">Create</button>
        <a href="/console/api-keys">Cancel</a>
      </div>
    </form>`,
    flash,
  );
}

/** "Revoke": the second step, "Revoke key". */
export function revokeKeyPage(viewer: ConsoleViewer, key: ApiKeySummary): Html {
  return signedInPage(
    viewer,
    'API keys',
    'Revoke API key',
    html`<form method="post" action="/console/api-keys/${key.id}/revoke" class="card">
      <p>
        Revoke <strong>${key.name ?? key.id}</strong> (${key.scopes.join(', ')})? Every request with it is refused
        within seconds, on every instance. This cannot be undone.
      </p>
      <div class="buttons">
        <button type="submit" class="danger">Revoke key</button>
        <a href="/console/api-keys">Cancel</a>
      </div>
    </form>`,
  );
}
