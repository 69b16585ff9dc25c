import { ConsoleViewer } from '../http/console-request';
import { Html, html } from '../http/html';
import { formatTime } from '../layout/format';
import { Flash, signedInPage } from '../layout/layout';
import { table } from '../layout/table';
import { CONSOLE_ROLES, ConsoleRole } from './console-role';
import { ConsoleUser } from './console-users.repository';

function roleOptions(selected: ConsoleRole): Html[] {
  return CONSOLE_ROLES.map(
    (role) => html`<option value="${role}" ${role === selected ? html` selected` : ''}>${role}</option>`,
  );
}

/** One person: an admin sees a role choice and "Remove"; a viewer sees the role as text and nothing to press. */
function personRow(person: ConsoleUser, viewer: ConsoleViewer): Html {
  const admin = viewer.role === 'admin';
  const id = person.id;
  const role = admin
    ? html`<form method="post" action="/console/people/${id}/role">
        <label class="visually-hidden" for="role-${id}">Role</label>
        <select id="role-${id}" name="role">
          ${roleOptions(person.role)}
        </select>
        <button type="submit">Change role</button>
      </form>`
    : html`${person.role}`;
  const remove = admin
    ? html`<td class="actions">
        <form method="post" action="/console/people/${id}/remove">
          <button type="submit" class="danger">Remove</button>
        </form>
      </td>`
    : '';
  return html`<tr>
    <td data-label="Email" class="break">
      ${person.email}${person.id === viewer.userId ? html` <span class="muted">(you)</span>` : ''}
    </td>
    <td data-label="Role">${role}</td>
    <td data-label="Last sign-in">${formatTime(person.lastSignInAt)}</td>
    ${remove}
  </tr>`;
}

function inviteForm(): Html {
  return html`<h2 id="invite-heading">Invite person</h2>
    <form method="post" action="/console/people" class="card" aria-labelledby="invite-heading">
      <div class="field-row">
        <div><label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required /></div>
        <div>
          <label for="invite-role">Role</label
          ><select id="invite-role" name="role">
            ${roleOptions('viewer')}
          </select>
        </div>
      </div>
      <button type="submit" class="primary">Invite person</button>
      <p class="muted">
        The person gets a welcome link, valid 72 hours, to choose a password; send it to them yourself.
      </p>
    </form>`;
}

export function peoplePage(viewer: ConsoleViewer, people: ConsoleUser[], flash: Flash): Html {
  const admin = viewer.role === 'admin';
  return signedInPage(
    viewer,
    'People',
    'People',
    html`<p class="muted">Admins change everything; viewers see every page and change nothing.</p>
      ${table(
        ['Email', 'Role', 'Last sign-in', admin ? html`<span class="visually-hidden">Remove</span>` : null].filter(
          (column) => column !== null,
        ),
        people,
        (person) => personRow(person, viewer),
      )}
      ${admin ? inviteForm() : ''}`,
    flash,
  );
}
