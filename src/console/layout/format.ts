import { Html, html } from '../http/html';

/** A moment as people read it (UTC, to the minute), with its exact value for machines. */
export function formatTime(at: Date | null): Html {
  if (at === null) return html`<span class="muted">never</span>`;
  const iso = at.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
}
