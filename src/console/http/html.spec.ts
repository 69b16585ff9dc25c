import { escapeHtml, html, Html } from './html';

describe('html templates', () => {
  it('escapes interpolated text for element content and quoted attributes', () => {
    const name = `<script>alert("x")</script> & 'quotes'`;
    expect(html`<p title="${name}">${name}</p>`.text).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;</p>',
    );
  });

  it('keeps markup made by html and escapes each item of a list', () => {
    const items = ['<a>', 'b'].map((item) => html`<li>${item}</li>`);
    expect(
      html`<ol>
        ${items}
      </ol>`.text.replace(/\s+/g, ''),
    ).toBe('<ol><li>&lt;a&gt;</li><li>b</li></ol>');
  });

  it('renders nothing for null, undefined and false, and numbers as text', () => {
    expect(html`${null}${undefined}${false}${0}${12}`.text).toBe('012');
  });

  it('does not trust a string that merely looks like markup', () => {
    expect(html`${new Html('<b>kept</b>')}${'<b>escaped</b>'}`.text).toBe('<b>kept</b>&lt;b&gt;escaped&lt;/b&gt;');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });
});
