import { SCRIPT, STYLESHEET } from '../assets/assets';
import { ConsoleViewer } from '../http/console-request';
import { Html, html, HtmlValue } from '../http/html';

/**
 * The sections of the navigation, in its order: the link names docs/api-decisions.md lists, the settings first, then the
 * data (Version 5; "Skills" joins between these two with its page).
 */
export const SECTIONS = [
  { name: 'API keys', path: '/console/api-keys' },
  { name: 'Webhooks', path: '/console/webhooks' },
  { name: 'Events', path: '/console/events' },
  { name: 'People', path: '/console/people' },
  { name: 'Activity', path: '/console/activity' },
  { name: 'Employees', path: '/console/employees' },
  { name: 'Skills', path: '/console/skills' },
  { name: 'Positions', path: '/console/positions' },
] as const;

export type SectionName = (typeof SECTIONS)[number]['name'];

/** A message shown once after a change (see flash.ts), and a value shown once (a welcome link, a new key). */
export interface Flash {
  notice?: string;
  error?: string;
  reveal?: { label: string; value: string };
}

function documentShell(title: string, body: Html): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Skills console</title>
        <link rel="stylesheet" href="${STYLESHEET.path}" />
        <script src="${SCRIPT.path}" defer></script>
      </head>
      <body>
        ${body}
      </body>
    </html> `;
}

/**
 * Every page after sign-in: the organisation and the person, "Sign out", the navigation with the current
 * section marked, the page's heading, its one-time messages, then its content.
 */
export function signedInPage(
  viewer: ConsoleViewer,
  section: SectionName,
  title: string,
  content: HtmlValue,
  flash: Flash = {},
): Html {
  const links = SECTIONS.map(
    ({ name, path }) =>
      html`<li><a href="${path}" ${name === section ? html` aria-current="page"` : ''}>${name}</a></li>`,
  );
  return documentShell(
    title,
    html`<a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <div class="brand">Skills console</div>
        <div class="who">
          <span class="organisation">${viewer.organisationName}</span>
          <span>${viewer.email} <span class="role">(${viewer.role})</span></span>
          <form method="post" action="/console/sign-out"><button type="submit">Sign out</button></form>
        </div>
      </header>
      <nav class="sections" aria-label="Settings">
        <ul>
          ${links}
        </ul>
      </nav>
      <main id="main">
        <h1>${title}</h1>
        ${flashMessages(flash)} ${content}
      </main>`,
  );
}

/** A page before sign-in (sign-in, welcome link, errors): a narrow card. */
export function signedOutPage(title: string, content: HtmlValue, flash: Flash = {}): Html {
  return documentShell(
    title,
    html`<header class="top"><div class="brand">Skills console</div></header>
      <main id="main" class="narrow">
        <h1>${title}</h1>
        ${flashMessages(flash)}
        <div class="card">${content}</div>
      </main>`,
  );
}

/** An error page: what happened, and the way back. */
export function messagePage(title: string, message: string): Html {
  return signedOutPage(
    title,
    html`<p>${message}</p>
      <p><a href="/console">Back to the console</a></p>`,
  );
}

function flashMessages(flash: Flash): Html {
  return html`${flash.error ? html`<p class="error" role="alert">${flash.error}</p>` : ''}${
    flash.notice ? html`<p class="notice" role="status">${flash.notice}</p>` : ''
  }${flash.reveal ? revealField(flash.reveal.label, flash.reveal.value) : ''}`;
}

/**
 * A value shown only this once, in a read-only field named `label`, with "Copy" (which the script shows; the
 * field can be selected and copied by hand without it).
 */
export function revealField(label: string, value: string): Html {
  return html`<div class="card reveal-card">
    <label for="revealed">${label}</label>
    <div class="reveal">
      <input id="revealed" type="text" readonly value="${value}" />
      <button type="button" data-copy="revealed" hidden>Copy</button>
    </div>
    <p class="muted" id="revealed-status" role="status"></p>
    <p class="muted">Shown only this once: copy it now.</p>
  </div>`;
}
