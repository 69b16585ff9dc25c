import { DOMAIN_EVENT_NAMES } from '../../events/domain-events';
import type { PageFields } from '../../pagination/pagination';
import type { WebhookDeliveryResponse } from '../../webhooks/dto/webhook-delivery.response';
import type { WebhookResponse } from '../../webhooks/dto/webhook.response';
import type { WebhookDeliveryDetail } from '../../webhooks/webhooks.service';
import { ConsoleViewer } from '../http/console-request';
import { Html, html } from '../http/html';
import { formatTime } from '../layout/format';
import { Flash, signedInPage } from '../layout/layout';
import { filterForm, pager, table, toolbar } from '../layout/table';

const WEBHOOKS = '/console/webhooks';

function endpointRow(endpoint: WebhookResponse): Html {
  return html`<tr>
    <td data-label="URL" class="break"><a href="${WEBHOOKS}/${endpoint.id}">${endpoint.url}</a></td>
    <td data-label="Events">${endpoint.events.join(', ')}</td>
    <td data-label="Created">${formatTime(new Date(endpoint.createdAt))}</td>
  </tr>`;
}

/** The organisation's endpoints, each opening its own page; an admin gets "Add endpoint". */
export function webhooksPage(viewer: ConsoleViewer, endpoints: WebhookResponse[], flash: Flash): Html {
  return signedInPage(
    viewer,
    'Webhooks',
    'Webhooks',
    html`<p class="muted">
        Each endpoint receives the events it names, signed, once each. Open one for its deliveries.
      </p>
      ${viewer.role === 'admin' ? toolbar(`${WEBHOOKS}/new`, 'Add endpoint') : ''}
      ${table(['URL', 'Events', 'Created'], endpoints, endpointRow, { empty: html`<p>No endpoints yet.</p>` })}`,
    flash,
  );
}

/** "Add endpoint": the URL, the events (the five webhooks carry) and an optional secret. */
export function newEndpointPage(viewer: ConsoleViewer, flash: Flash): Html {
  const events = DOMAIN_EVENT_NAMES.map(
    (name) => html`<label class="check"><input type="checkbox" name="events" value="${name}" /> ${name}</label>`,
  );
  return signedInPage(
    viewer,
    'Webhooks',
    'Add endpoint',
    html`<form method="post" action="${WEBHOOKS}" class="card">
      <label for="endpoint-url">URL</label>
      <input id="endpoint-url" name="url" type="url" maxlength="2048" required placeholder="https://" />
      <fieldset>
        <legend>Events</legend>
        <div class="checks">${events}</div>
      </fieldset>
      <label for="endpoint-secret">Secret</label>
      <input
        id="endpoint-secret"
        name="secret"
        type="text"
        maxlength="256"
        autocomplete="off"
        aria-describedby="endpoint-secret-hint"
      />
      <p class="muted" id="endpoint-secret-hint">
        Optional: the key of the signatures. Kept encrypted and never shown again; rotate it to get a new one.
      </p>
      <div class="buttons">
        <button type="submit" class="primary">Add</button>
        <a href="${WEBHOOKS}">Cancel</a>
      </div>
    </form>`,
    flash,
  );
}

/** What the receiver answered: its status, or why no answer came. */
function responseOf(delivery: WebhookDeliveryResponse): Html | string {
  if (delivery.statusCode !== null) return String(delivery.statusCode);
  return delivery.error ?? html`<span class="muted">none yet</span>`;
}

function deliveryRow(endpointId: string, delivery: WebhookDeliveryResponse, admin: boolean): Html {
  const path = `${WEBHOOKS}/${endpointId}/deliveries/${delivery.deliveryId}`;
  return html`<tr>
    <td data-label="Event"><a href="${path}">${delivery.event}</a></td>
    <td data-label="Status"><span class="status status-${delivery.status}">${delivery.status}</span></td>
    <td data-label="Response" class="break">${responseOf(delivery)}</td>
    <td data-label="Duration">${delivery.durationMs === null ? '' : `${delivery.durationMs} ms`}</td>
    <td data-label="Sent">${formatTime(delivery.attemptedAt === null ? null : new Date(delivery.attemptedAt))}</td>
    ${
      admin
        ? html`<td class="actions">
            <form method="post" action="${path}/redeliver"><button type="submit">Redeliver</button></form>
          </td>`
        : ''
    }
  </tr>`;
}

export interface DeliveriesView {
  items: WebhookDeliveryResponse[];
  meta: Pick<PageFields, 'page' | 'hasNextPage' | 'hasPrevPage'>;
  failedOnly: boolean;
}

function deliveriesSection(endpointId: string, view: DeliveriesView, admin: boolean): Html {
  const query = (page: number) => `?${view.failedOnly ? 'failed=on&' : ''}page=${page}`;
  const base = `${WEBHOOKS}/${endpointId}`;
  return html`<h2 id="deliveries-heading">Deliveries</h2>
    ${filterForm(
      base,
      html`<label class="check"
        ><input type="checkbox" name="failed" value="on" ${view.failedOnly ? html`checked` : ''} /> Failed only</label
      >`,
      'Show',
      { name: 'Filter deliveries' },
    )}
    ${table(
      [
        'Event',
        'Status',
        'Response',
        'Duration',
        'Sent',
        admin ? html`<span class="visually-hidden">Redeliver</span>` : null,
      ].filter((column) => column !== null),
      view.items,
      (delivery) => deliveryRow(endpointId, delivery, admin),
      {
        labelledBy: 'deliveries-heading',
        empty: html`<p>No deliveries${view.failedOnly ? ' that failed' : ''} here.</p>`,
      },
    )}
    ${pager(
      { label: 'Newer', href: view.meta.hasPrevPage ? `${base}${query(view.meta.page - 1)}` : null },
      { label: 'Older', href: view.meta.hasNextPage ? `${base}${query(view.meta.page + 1)}` : null },
    )}`;
}

/** An endpoint: what it receives, its buttons (admins), its deliveries newest first. */
export function endpointPage(
  viewer: ConsoleViewer,
  endpoint: WebhookResponse,
  deliveries: DeliveriesView,
  flash: Flash,
): Html {
  const admin = viewer.role === 'admin';
  const base = `${WEBHOOKS}/${endpoint.id}`;
  return signedInPage(
    viewer,
    'Webhooks',
    'Endpoint',
    html`<p class="break"><strong>${endpoint.url}</strong></p>
      <dl class="facts">
        <dt>Events</dt>
        <dd>${endpoint.events.join(', ')}</dd>
        <dt>Created</dt>
        <dd>${formatTime(new Date(endpoint.createdAt))}</dd>
      </dl>
      ${
        admin
          ? html`<div class="buttons">
              <form method="post" action="${base}/test"><button type="submit">Send test event</button></form>
              <form method="post" action="${base}/rotate-secret"><button type="submit">Rotate secret</button></form>
              <form method="get" action="${base}/delete">
                <button type="submit" class="danger">Delete endpoint</button>
              </form>
            </div>`
          : ''
      }
      ${deliveriesSection(endpoint.id, deliveries, admin)}
      <p><a href="${WEBHOOKS}">All endpoints</a></p>`,
    flash,
  );
}

/** "Delete endpoint": the second step, "Delete". */
export function deleteEndpointPage(viewer: ConsoleViewer, endpoint: WebhookResponse): Html {
  return signedInPage(
    viewer,
    'Webhooks',
    'Delete endpoint',
    html`<form method="post" action="${WEBHOOKS}/${endpoint.id}/delete" class="card">
      <p class="break">
        Delete <strong>${endpoint.url}</strong>? It receives nothing more, and its undelivered events are dropped.
      </p>
      <div class="buttons">
        <button type="submit" class="danger">Delete</button>
        <a href="${WEBHOOKS}/${endpoint.id}">Cancel</a>
      </div>
    </form>`,
  );
}

/** Bytes as text, as a person reads them (UTF-8; anything else shows as replacement characters). */
function asText(bytes: Buffer): string {
  return bytes.toString('utf8');
}

/** A delivery's detail: its outcome, the exact body sent and the start of the answer. */
export function deliveryPage(
  viewer: ConsoleViewer,
  endpoint: WebhookResponse,
  delivery: WebhookDeliveryDetail,
  flash: Flash,
): Html {
  const path = `${WEBHOOKS}/${endpoint.id}/deliveries/${delivery.deliveryId}`;
  const excerpt = delivery.responseExcerpt;
  return signedInPage(
    viewer,
    'Webhooks',
    'Delivery',
    html`<p class="break">${delivery.event} to <strong>${endpoint.url}</strong></p>
      <dl class="facts">
        <dt>Status</dt>
        <dd><span class="status status-${delivery.status}">${delivery.status}</span></dd>
        <dt>Response status</dt>
        <dd>${delivery.statusCode ?? html`<span class="muted">none</span>`}</dd>
        ${
          delivery.error === null
            ? ''
            : html`<dt>Error</dt>
                <dd class="break">${delivery.error}</dd>`
        }
        <dt>Duration</dt>
        <dd>${delivery.durationMs === null ? '' : `${delivery.durationMs} ms`}</dd>
        <dt>Sent</dt>
        <dd>${formatTime(delivery.attemptedAt === null ? null : new Date(delivery.attemptedAt))}</dd>
        <dt>Delivery id</dt>
        <dd class="break"><code>${delivery.deliveryId}</code></dd>
        <dt>Event id</dt>
        <dd class="break"><code>${delivery.eventId}</code></dd>
      </dl>
      ${
        viewer.role === 'admin'
          ? html`<form method="post" action="${path}/redeliver"><button type="submit">Redeliver</button></form>`
          : ''
      }
      <section aria-labelledby="body-heading">
        <h2 id="body-heading">Body sent</h2>
        <pre class="code" tabindex="0">${asText(delivery.body)}</pre>
      </section>
      <section aria-labelledby="response-heading">
        <h2 id="response-heading">Response body (first 1 KiB)</h2>
        ${
          excerpt === null
            ? html`<p class="muted">No answer${delivery.status === 'pending' ? ' yet' : ''}.</p>`
            : excerpt.length === 0
              ? html`<p class="muted">Empty.</p>`
              : html`<pre class="code" tabindex="0">${asText(excerpt)}</pre>`
        }
      </section>
      <p><a href="${WEBHOOKS}/${endpoint.id}">The endpoint’s deliveries</a></p>`,
    flash,
  );
}
