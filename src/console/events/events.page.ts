import { FEED_EVENT_NAMES } from '../../events/domain-events';
import type { EventResponse } from '../../events/feed/dto/event.response';
import type { NewestFirstPage } from '../../events/feed/events-feed.service';
import { ConsoleViewer } from '../http/console-request';
import { Html, html } from '../http/html';
import { formatTime } from '../layout/format';
import { signedInPage } from '../layout/layout';

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
      <form method="get" action="${EVENTS}" class="filter">
        <div>
          <label for="event-type">Event type</label>
          <select id="event-type" name="event">
            <option value="">every event</option>
            ${options}
          </select>
        </div>
        <button type="submit">Filter</button>
      </form>
      ${
        page.events.length === 0
          ? html`<p>No events${eventType === undefined ? '' : ` named ${eventType}`} here.</p>`
          : html`<div class="table-wrap">
              <table class="stack align-top">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Event</th>
                    <th scope="col">By</th>
                    <th scope="col">JSON</th>
                  </tr>
                </thead>
                <tbody>
                  ${page.events.map(eventRow)}
                </tbody>
              </table>
            </div>`
      }
      <nav class="pager" aria-label="Pages">
        ${page.newerThan ? html`<a href="${EVENTS}?${filter}after=${page.newerThan}">Newer</a>` : ''}
        ${page.olderThan ? html`<a href="${EVENTS}?${filter}before=${page.olderThan}">Older</a>` : ''}
      </nav>`,
  );
}
