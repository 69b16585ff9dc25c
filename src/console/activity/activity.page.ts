import { ActivityPage } from '../../audit/activity-log';
import { ActivityEntry } from '../../audit/activity.repository';
import { ConsoleViewer } from '../http/console-request';
import { Html, html } from '../http/html';
import { formatTime } from '../layout/format';
import { signedInPage } from '../layout/layout';
import { pager, table } from '../layout/table';

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
  return signedInPage(
    viewer,
    'Activity',
    'Activity',
    html`<p class="muted">
        Every change made in the console, every sign-in, and the command line’s API key changes, newest first; kept 400
        days.
      </p>
      ${table(['When', 'Who', 'Action', 'Target', 'Client address'], page.entries, entryRow, {
        empty: html`<p>Nothing here yet.</p>`,
      })}
      ${pager(
        { label: 'Newer', href: page.newerThan && `/console/activity?after=${page.newerThan}` },
        { label: 'Older', href: page.olderThan && `/console/activity?before=${page.olderThan}` },
      )}`,
  );
}
