import { ActivityPage } from '../../audit/activity-log';
import { ActivityEntry } from '../../audit/activity.repository';
import { ConsoleViewer } from '../http/console-request';
import { Html, html } from '../http/html';
import { formatTime } from '../layout/format';
import { signedInPage } from '../layout/layout';

function entryRow(entry: ActivityEntry): Html {
  return html`<tr>
    <td data-label="When">${formatTime(entry.at)}</td>
    <td data-label="Who" class="break">${entry.actor}</td>
    <td data-label="Action">${entry.action}</td>
    <td data-label="Target" class="break">${entry.target ?? ''}</td>
    <td data-label="Client address">${entry.clientAddress ?? ''}</td>
  </tr>`;
}

export function activityPage(viewer: ConsoleViewer, page: ActivityPage): Html {
  const pager = html`<nav class="pager" aria-label="Pages">
    ${
      page.newerThan ? html`<a href="/console/activity?after=${page.newerThan}">Newer</a>` : ''
    }${page.olderThan ? html`<a href="/console/activity?before=${page.olderThan}">Older</a>` : ''}
  </nav>`;
  return signedInPage(
    viewer,
    'Activity',
    'Activity',
    html`<p class="muted">
        Every change made in the console, every sign-in, and the command line’s API key changes, newest first; kept 400
        days.
      </p>
      ${
        page.entries.length === 0
          ? html`<p>Nothing here yet.</p>`
          : html`<div class="table-wrap">
              <table class="stack">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">Action</th>
                    <th scope="col">Target</th>
                    <th scope="col">Client address</th>
                  </tr>
                </thead>
                <tbody>
                  ${page.entries.map(entryRow)}
                </tbody>
              </table>
            </div>`
      }
      ${pager}`,
  );
}
