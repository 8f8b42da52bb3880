/** The dashboard's one stylesheet (served from the dashboard's own path: the CSP allows no inline style). */
export const DASHBOARD_CSS = `
:root { --ink: #1b1f24; --muted: #4a5360; --line: #d0d7de; --accent: #0b5cad; --bg: #f6f8fa; --ok: #116329; --bad: #a40e26; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
a { color: var(--accent); }
.top { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .6rem 1rem; background: #12263f; color: #fff; }
.top .brand { font-weight: 700; text-decoration: none; overflow-wrap: anywhere; }
.top .search { display: flex; align-items: center; gap: .4rem; flex: 1 1 18rem; max-width: 34rem; min-width: 0; margin: 0; }
.top .search input { flex: 1 1 6rem; width: 100%; min-width: 0; font: inherit; padding: .3rem .5rem; border: 1px solid #fff; border-radius: 4px; }
.top .who { margin-left: auto; font-size: .9rem; min-width: 0; overflow-wrap: anywhere; }
.top button { background: transparent; color: #fff; border: 1px solid #fff; }
.top a { color: #fff; }
.top a[aria-current="page"] { font-weight: 700; }
ol.steps { padding-left: 1.2rem; }
ol.steps > li { margin-bottom: 1rem; }
.nav ul { display: flex; flex-wrap: wrap; gap: .25rem; margin: 0; padding: .4rem 1rem; list-style: none; background: var(--bg); border-bottom: 1px solid var(--line); }
.nav a { display: inline-block; padding: .35rem .6rem; border-radius: 4px; text-decoration: none; }
.nav a[aria-current="page"] { background: var(--accent); color: #fff; }
main { padding: 1rem; max-width: 72rem; }
main.narrow { max-width: 26rem; }
h1 { font-size: 1.5rem; margin: .2rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.6rem 0 .6rem; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .92rem; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--bg); }
.field { display: flex; flex-direction: column; gap: .2rem; margin-bottom: .8rem; }
.field input, .field select, .field textarea { font: inherit; padding: .45rem .5rem; border: 1px solid #8c959f; border-radius: 4px; max-width: 28rem; }
.field input[aria-invalid="true"], .field select[aria-invalid="true"], .field textarea[aria-invalid="true"] { border-color: var(--bad); }
.field-error { color: var(--bad); font-weight: 600; }
.hint, .muted { color: var(--muted); }
fieldset { border: 1px solid var(--line); border-radius: 4px; margin: 0 0 .8rem; }
.checks label { display: block; }
legend { font-weight: 600; padding: 0 .3rem; }
fieldset.radios, fieldset.group { max-width: 40rem; }
.radios .radio { display: flex; gap: .6rem; align-items: flex-start; margin: .5rem 0; }
.radios .radio input { flex: none; width: 1.25rem; height: 1.25rem; margin: .15rem 0 0; }
.radios .radio small { display: block; }
button { font: inherit; padding: .4rem .9rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
form.inline { display: inline; margin: 0; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: .6rem 0 1rem; }
.button-link { display: inline-block; padding: .4rem .9rem; border-radius: 4px; background: var(--accent); color: #fff; text-decoration: none; }
.notice { padding: .6rem .9rem; border-radius: 4px; margin-bottom: 1rem; border: 1px solid; }
.notice.success { background: #dafbe1; border-color: #4ac26b; }
.notice.error { background: #ffebe9; border-color: #ff8182; }
.notice.info { background: #ddf4ff; border-color: #54aeff; }
.notice p { margin: .2rem 0; }
.error-summary { border: 4px solid var(--bad); padding: .6rem 1rem; margin-bottom: 1rem; }
.error-summary h2 { margin: 0 0 .4rem; }
.error-summary ul { margin: 0; padding-left: 1.1rem; }
.error-summary a { color: var(--bad); font-weight: 600; }
button.destructive { background: var(--bad); border-color: var(--bad); }
button.secondary, .button-link.secondary { background: #fff; color: var(--accent); }
code.secret { word-break: break-all; font-size: .95rem; background: #fff; padding: .1rem .3rem; border: 1px solid var(--line); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; }
.pager { display: flex; gap: 1rem; margin: .8rem 0; }
.empty { color: var(--muted); }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 1rem; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .8rem; }
.card h2 { margin-top: 0; }
.chart { max-width: 46rem; }
.chart svg { width: 100%; height: auto; }
td.num { text-align: right; white-space: nowrap; }
.report-chart { max-width: 60rem; }
.key-occupancy { color: #0b5cad; } .key-revenue { color: #8a3b12; }
.grid td.booked { background: #0b5cad; color: #fff; text-align: center; }
.grid td.free { text-align: center; color: var(--muted); }
.rates thead th { white-space: nowrap; font-size: .85rem; }
.rates td { font-size: .85rem; text-align: right; white-space: nowrap; vertical-align: top; }
.rates td.base { color: var(--muted); }
.rates td.closed { background: #f6d6d6; }
.rates td small { display: block; color: var(--ink); }
.status-failed, .status-needs_review { color: var(--bad); font-weight: 600; }
.status-delivered, .status-paid { color: var(--ok); font-weight: 600; }
.filters { display: flex; flex-wrap: wrap; gap: 0 1rem; align-items: flex-end; margin-bottom: .4rem; }
.filters button { margin-bottom: .8rem; }
pre.payload { margin: .3rem 0; padding: .5rem; max-height: 24rem; overflow: auto; white-space: pre-wrap; word-break: break-all; background: var(--bg); border: 1px solid var(--line); font-size: .85rem; }
ul.changes { margin: 0; padding-left: 1rem; }
ol.story { list-style: none; margin: 0; padding: 0; }
ol.story > li { display: flex; flex-wrap: wrap; gap: .1rem 1rem; padding: .5rem 0; border-bottom: 1px solid var(--line); }
ol.story time { flex: 0 0 13rem; color: var(--muted); font-size: .92rem; }
ol.story .what { flex: 1 1 20rem; min-width: 0; overflow-wrap: anywhere; }
.facts dd { min-width: 0; overflow-wrap: anywhere; }
td.amount { white-space: nowrap; }
.nowrap { white-space: nowrap; }
.url { overflow-wrap: anywhere; }
img.qr { display: block; width: 12rem; height: 12rem; border: 1px solid var(--line); }
.qr-sheet { text-align: center; max-width: 32rem; margin: 0 auto; }
.qr-sheet img { width: 100%; max-width: 24rem; height: auto; }
.qr-hotel { font-size: 1.8rem; font-weight: 700; margin: .5rem 0; }
.qr-call { font-size: 1.3rem; margin: 0 0 1rem; }
@media print {
  .top, .nav, .no-print, main:has(.qr-sheet) > h1 { display: none; }
  main { max-width: none; padding: 0; }
  .qr-sheet { max-width: none; }
  .qr-sheet img { width: 12cm; max-width: none; }
  .qr-sheet .url { font-size: 1.1rem; }
}
`;
