import { FEED_EVENT_NAMES } from '../../events/domain-events';
import type { EventResponse } from '../../events/feed/dto/event.response';
import type { NewestFirstPage } from '../../events/feed/events-feed.service';
import { ConsoleViewer } from '../http/console-request';
import { Html, html } from '../http/html';
import { formatTime } from '../layout/format';
import { signedInPage } from '../layout/layout';
import { filterForm, pager, table } from '../layout/table';

const EVENTS = '/console/events';

/** Who made the change, as a person reads the event's actor. */
function actorOf(event: EventResponse): string {
  const actor = event.actor as { type: string; id?: string };
  return actor.id === undefined ? actor.type : `${actor.type} ${actor.id}`;
}

function eventRow(event: EventResponse): Html {
  const { id, ...body } = event;
  return html`<tr>
    <td data-label="When">${formatTime(new Date(event.timestamp))}</td>
    <td data-label="Event">${event.event}</td>
    <td data-label="By" class="break">${actorOf(event)}</td>
    <td data-label="JSON" class="json">
      <details>
        <summary>JSON <span class="visually-hidden">of ${event.event} ${id}</span></summary>
        <pre class="code" tabindex="0">${JSON.stringify({ id, ...body }, null, 2)}</pre>
      </details>
    </td>
  </tr>`;
}

/** The organisation's feed, newest first, 50 a page, with a filter by event name. */
export function eventsPage(viewer: ConsoleViewer, page: NewestFirstPage, eventType: string | undefined): Html {
  const filter = eventType === undefined ? '' : `event=${encodeURIComponent(eventType)}&`;
  const options = FEED_EVENT_NAMES.map(
    (name) => html`<option value="${name}" ${name === eventType ? html`selected` : ''}>${name}</option>`,
  );
  return signedInPage(
    viewer,
    'Events',
    'Events',
    html`<p class="muted">
        Every change the service recorded for the organisation, newest first, as <code>GET /api/v1/events</code> lists
        them and webhooks carry them.
      </p>
      ${filterForm(
        EVENTS,
        html`<div>
          <label for="event-type">Event type</label>
          <select id="event-type" name="event">
            <option value="">every event</option>
            ${options}
          </select>
        </div>`,
        'Filter',
      )}
      ${table(['When', 'Event', 'By', 'JSON'], page.events, eventRow, {
        alignTop: true,
        empty: html`<p>No events${eventType === undefined ? '' : ` named ${eventType}`} here.</p>`,
      })}
      ${pager(
        { label: 'Newer', href: page.newerThan && `${EVENTS}?${filter}after=${page.newerThan}` },
        { label: 'Older', href: page.olderThan && `${EVENTS}?${filter}before=${page.olderThan}` },
      )}`,
  );
}
