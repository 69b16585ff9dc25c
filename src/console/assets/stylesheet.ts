/** The console's one stylesheet: plain, readable, usable at 360 px, without any font or image from elsewhere. */
export const CONSOLE_CSS = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; color: #1f2328; background: #f6f8fa;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
a { color: #0b57d0; }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible {
  outline: 3px solid #0b57d0; outline-offset: 2px;
}
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; }
.skip:focus { left: .5rem; z-index: 10; }
.visually-hidden {
  position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
.top {
  display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; justify-content: space-between;
  padding: .75rem 1.25rem; background: #24292f; color: #fff;
}
.brand { font-weight: 600; font-size: 1.05rem; }
.who { display: flex; flex-wrap: wrap; gap: .25rem .75rem; align-items: center; font-size: .9rem; }
.who .organisation { font-weight: 600; }
.who .role { color: #d0d7de; }
.who form { margin: 0; }
.top button { background: transparent; color: #fff; border-color: #8c959f; }
.top button:hover { background: #32383f; }
nav.sections { background: #fff; border-bottom: 1px solid #d0d7de; padding: 0 1.25rem; }
nav.sections ul { display: flex; flex-wrap: wrap; gap: 0 1.25rem; margin: 0; padding: 0; list-style: none; }
nav.sections a {
  display: inline-block; padding: .65rem 0; text-decoration: none; color: #1f2328;
  border-bottom: 3px solid transparent;
}
nav.sections a:hover { border-bottom-color: #d0d7de; }
nav.sections a[aria-current="page"] { border-bottom-color: #0b57d0; font-weight: 600; }
main { max-width: 64rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
main.narrow { max-width: 26rem; padding-top: 3rem; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .75rem; }
h3 { font-size: 1.05rem; margin: 0 0 .35rem; }
p { margin: 0 0 1rem; }
.card { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 1.25rem; }
.muted { color: #57606a; }
.notice, .error { border-radius: 6px; padding: .75rem 1rem; margin: 0 0 1rem; }
.notice { background: #dafbe1; border: 1px solid #4ac26b; }
.error { background: #ffebe9; border: 1px solid #ff8182; }
label { display: block; font-weight: 600; margin: 0 0 .25rem; }
input[type="email"], input[type="password"], input[type="search"], input[type="text"], input[type="url"], select {
  display: block; width: 100%; max-width: 100%; font: inherit; padding: .45rem .6rem; margin: 0 0 1rem;
  border: 1px solid #8c959f; border-radius: 6px; background: #fff; color: inherit;
}
input[readonly] { background: #f6f8fa; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
button {
  font: inherit; padding: .45rem .9rem; border-radius: 6px; border: 1px solid #8c959f; background: #fff;
  color: #1f2328; cursor: pointer;
}
button:hover { background: #f3f4f6; }
button.primary { background: #1f6feb; border-color: #1f6feb; color: #fff; font-weight: 600; }
button.primary:hover { background: #1a5fcc; }
button.danger { color: #b42318; border-color: #d1242f; }
.reveal-card { margin-bottom: 1.25rem; }
form.card > p.muted { margin: .75rem 0 0; }
.reveal { display: flex; gap: .5rem; align-items: flex-start; }
.reveal input { margin: 0; }
.field-row { display: flex; flex-wrap: wrap; gap: 0 1rem; align-items: flex-end; }
.field-row > div { flex: 1 1 12rem; min-width: 0; }
.table-wrap { overflow-x: auto; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
th, td { text-align: left; padding: .6rem .75rem; border-bottom: 1px solid #d8dee4; vertical-align: middle; }
th { background: #f6f8fa; font-weight: 600; white-space: nowrap; }
tr:last-child td { border-bottom: 0; }
td form { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: 0; }
td select { display: inline-block; width: auto; margin: 0; }
.break { overflow-wrap: break-word; }
td time { white-space: nowrap; }
.pager { display: flex; gap: 1rem; margin-top: 1rem; }
.toolbar { margin: 0 0 1rem; }
.buttons { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; margin: 0 0 1rem; }
.buttons form { margin: 0; }
fieldset { border: 1px solid #d0d7de; border-radius: 6px; margin: 0 0 1rem; padding: .5rem .9rem .75rem; min-width: 0; }
legend { font-weight: 600; padding: 0 .25rem; }
.checks { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; }
label.check { display: inline-flex; gap: .4rem; align-items: center; font-weight: 400; margin: 0; }
label.check input { width: 1.1rem; height: 1.1rem; margin: 0; }
.filter { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; margin: 0 0 1rem; }
.filter select, .filter input { margin: 0; }
.filter select { width: auto; }
.filter .grow { flex: 1 1 14rem; }
.filter + .hint { margin-top: -.5rem; font-size: .9rem; }
.filter label.check { padding: .45rem 0; }
.status { font-weight: 600; }
.status-active, .status-delivered { color: #116329; }
.status-failed, .status-refused, .status-revoked { color: #b42318; }
.status-expired, .status-pending, .status-deactivated { color: #57606a; }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .25rem 1rem; margin: 0 0 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; min-width: 0; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9rem; }
pre.code {
  background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: .75rem; margin: 0 0 1rem;
  overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; max-width: 100%;
}
table.align-top td { vertical-align: top; }
td.json { min-width: 0; }
td.json pre.code { margin: .5rem 0 0; }
summary { cursor: pointer; color: #0b57d0; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 24rem), 1fr)); gap: 1rem; margin: 0 0 1rem; }
.chart-card p { margin: 0 0 .5rem; }
ol.candidates { list-style: none; margin: 0 0 1rem; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 24rem), 1fr)); gap: 1rem; }
.candidate p { margin: 0 0 .5rem; }
ul.group-tree { list-style: none; margin: 0 0 1rem; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 18rem), 1fr)); gap: .25rem 1rem; }
ul.group-tree li { padding: .4rem 0; border-bottom: 1px solid #d8dee4; overflow-wrap: anywhere; }
.rank { color: #57606a; font-variant-numeric: tabular-nums; }
.chart { margin: 0; max-width: 26rem; }
.chart-drawing { display: block; width: 100%; height: auto; overflow: visible; }
.chart text { font: 14px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; fill: #1f2328; }
.chart .chart-axis text { font-size: 13px; fill: #57606a; }
.chart .chart-value { font-weight: 600; }
.chart-grid { stroke: #d8dee4; stroke-width: 1; }
.chart-track { fill: #eaeef2; }
.chart-bar { fill: #0b57d0; }
.chart-bar-met { fill: #1a7f37; }
.chart-bar-short { fill: #9a6700; }
.chart-target { stroke: #1f2328; stroke-width: 2.5; }
.chart-line { fill: none; stroke: #8c959f; stroke-width: 1.5; }
.chart-mark { stroke: #fff; stroke-width: 1; }
.chart-series-0 { fill: #0b57d0; }
.chart-series-1 { fill: #bc4c00; }
.chart-series-2 { fill: #8250df; }
.chart-series-3 { fill: #1a7f37; }
.chart-legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: .35rem 0 0; padding: 0; font-size: .9rem; }
.chart-legend li { display: inline-flex; gap: .35rem; align-items: center; }
.chart-swatch { width: .9rem; height: .9rem; }
@media (max-width: 40rem) {
  main { padding: 1rem .75rem 2rem; }
  .top, nav.sections { padding-left: .75rem; padding-right: .75rem; }
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; width: 100%; }
  table.stack tr { border-bottom: 1px solid #d0d7de; padding: .4rem 0; }
  table.stack td { border: 0; padding: .25rem .75rem; }
  table.stack td::before { content: attr(data-label) ": "; font-weight: 600; }
  table.stack td.actions::before { content: none; }
  .chart-card, .candidate { padding: .75rem; }
  .break { overflow-wrap: anywhere; }
}
`;
