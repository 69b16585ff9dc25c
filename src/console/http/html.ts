const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Markup made by `html` (or trusted by construction): interpolated into another template as it is. */
export class Html {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/** What a template may interpolate: text and numbers are escaped, Html is kept, absent values render nothing. */
export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

/**
 * The console's one way to write markup: every interpolated value is escaped for text and for quoted attribute
 * values, unless it is Html already, so a page cannot forget to escape. Attributes are always quoted in the
 * templates; no template puts a value into a script, a style or an unquoted attribute, nor a stored URL into
 * an href (a link's target is always a path of the console).
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let text = strings[0];
  values.forEach((value, index) => {
    text += render(value) + strings[index + 1];
  });
  return new Html(text);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(String(value));
}
