import { barChart, BarChart } from './bar-chart';
import { CHART_WIDTH } from './chart-parts';

const gaps: BarChart = {
  id: 'gap-1',
  title: 'Scores of Ada against the minimums',
  bars: [
    { label: 'TypeScript', value: 4, target: 3, tone: 'met' },
    { label: 'SQL', value: 1, target: 4, tone: 'short' },
    { label: 'Go', value: null, target: 2, tone: 'short' },
  ],
  max: 5,
  headers: { label: 'Skill', value: 'Score', target: 'Minimum' },
  noValue: 'not rated',
  targetWord: 'min',
};

/** The attributes of every element `name` in the markup, in order. */
function elements(markup: string, name: string): Array<Record<string, string>> {
  return [...markup.matchAll(new RegExp(`<${name}\\b([^>]*?)/?>`, 'g'))].map(([, attributes]) =>
    Object.fromEntries([...attributes.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, key, value]) => [key, value])),
  );
}

/** The rows of the text alternative, each as its cells' text. */
function tableRows(markup: string): string[][] {
  const body = /<tbody>([\s\S]*)<\/tbody>/.exec(markup)![1];
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
    [...row.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map(([, cell]) => cell.trim()),
  );
}

describe('barChart', () => {
  it('draws one bar per value, as long as its value on the axis, coloured by its tone, with the target across it', () => {
    const markup = barChart(gaps).text;
    const bars = elements(markup, 'rect').filter((rect) => rect.class.startsWith('chart-bar'));
    expect(bars.map((bar) => [bar.class, Number(bar.width)])).toEqual([
      ['chart-bar chart-bar-met', (4 / 5) * CHART_WIDTH],
      ['chart-bar chart-bar-short', (1 / 5) * CHART_WIDTH],
    ]);
    const tracks = elements(markup, 'rect').filter((rect) => rect.class === 'chart-track');
    expect(tracks).toHaveLength(3);
    expect(elements(markup, 'line').map((line) => Number(line.x1))).toEqual(
      [3, 4, 2].map((m) => (m / 5) * CHART_WIDTH),
    );
  });

  it('writes each value and its target beside the bar, and what a missing value is', () => {
    const markup = barChart(gaps).text;
    expect(markup).toContain('>4 · min 3</text>');
    expect(markup).toContain('>1 · min 4</text>');
    expect(markup).toContain('>not rated · min 2</text>');
  });

  it('states the same numbers in a table captioned with its title, which also names the drawing', () => {
    const markup = barChart(gaps).text;
    expect(markup).toMatch(/<svg[^>]*role="img"[^>]*aria-labelledby="gap-1-title"/);
    expect(markup).toContain('<title id="gap-1-title">Scores of Ada against the minimums</title>');
    expect(markup).toMatch(/<caption>\s*Scores of Ada against the minimums\s*<\/caption>/);
    expect(markup).toMatch(/<th scope="col">Skill<\/th>\s*<th scope="col">Score<\/th>\s*<th scope="col">Minimum<\/th>/);
    expect(tableRows(markup)).toEqual([
      ['TypeScript', '4', '3'],
      ['SQL', '1', '4'],
      ['Go', 'not rated', '2'],
    ]);
  });

  it('leaves out the target column when no bar has one, and stops bars at the ends of the axis', () => {
    const markup = barChart({
      id: 'scores',
      title: 'Employees by score',
      bars: [
        { label: 'Score 5', value: 12 },
        { label: 'Score 0', value: 0 },
      ],
      max: 10,
      headers: { label: 'Score', value: 'Employees' },
      noValue: 'none',
    }).text;
    expect(markup).not.toContain('<line');
    expect(markup).not.toContain('Target');
    const bars = elements(markup, 'rect').filter((rect) => rect.class.startsWith('chart-bar'));
    expect(bars.map((bar) => Number(bar.width))).toEqual([CHART_WIDTH]);
    expect(tableRows(markup)).toEqual([
      ['Score 5', '12'],
      ['Score 0', '0'],
    ]);
  });

  it('cuts a long label in the drawing only, and escapes every label', () => {
    const long = `<b>${'Very long skill name '.repeat(5)}</b>`;
    const markup = barChart({ ...gaps, bars: [{ label: long, value: 2, target: 3 }] }).text;
    expect(markup).not.toContain('<b>');
    const drawn = /<text class="chart-label"[^>]*>([^<]*)<\/text>/.exec(markup)![1];
    expect(drawn.endsWith('…')).toBe(true);
    expect(drawn.length).toBeLessThan(long.length);
    expect(tableRows(markup)[0][0]).toBe(long.replace(/</g, '&lt;').replace(/>/g, '&gt;'));
  });

  it('scales by its viewBox and uses no inline style (the CSP allows none) and no script', () => {
    const markup = barChart(gaps).text;
    expect(markup).toMatch(new RegExp(`viewBox="0 0 ${CHART_WIDTH} \\d+"`));
    expect(markup).not.toMatch(/style=|<style|<script|\son\w+=/);
  });
});
