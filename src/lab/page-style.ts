/** The lab page's stylesheet, on top of the report's (report/html.ts). */
export const LAB_STYLE = `
body { max-width: 1560px; }
header .note { max-width: 110ch; }
.missions ol { list-style: none; display: flex; flex-wrap: wrap; gap: 8px; padding: 0; margin: 8px 0; }
button { font: inherit; padding: 4px 10px; border: 1px solid var(--rule); border-radius: 6px; background: var(--bg-alt); color: var(--fg); cursor: pointer; }
button:hover { border-color: var(--dim); }
button:focus-visible, input:focus-visible, select:focus-visible, pre:focus-visible, .mission-panel:focus-visible { outline: 3px solid #0969da; outline-offset: 1px; }
button.mission[aria-pressed="true"] { background: #fff8c5; border-color: #9a6700; }
.star { margin-left: 6px; color: #9a6700; }
.star.earned { color: #bf8700; }
.mission-panel { border: 1px solid var(--rule); border-left: 4px solid #9a6700; padding: 8px 14px; margin: 8px 0; background: #fffdf2; max-width: 110ch; }
.mission-panel h3 { margin: 0 0 4px; font-size: 15px; }
.mission-panel ul { margin: 4px 0; padding-left: 0; list-style: none; }
.mission-panel li::before { content: "○ "; }
.mission-panel li.pass::before { content: "✓ "; color: #1a7f37; }
.mission-panel li.fail::before { content: "✗ "; color: #cf222e; }
.lab { display: grid; grid-template-columns: minmax(300px, 360px) minmax(0, 1fr); gap: 24px; align-items: start; }
.summary { display: none; }
@media (max-width: 900px) {
  .lab { grid-template-columns: minmax(0, 1fr); }
  .summary { display: block; position: sticky; bottom: 0; z-index: 2; margin: 0 -24px; padding: 6px 24px; background: #1b1f24; color: #fff; font-size: 13px; }
}
.knobs fieldset { border: 1px solid var(--rule); border-radius: 6px; margin: 0 0 12px; padding: 6px 12px 10px; }
.knobs legend { font-weight: 600; padding: 0 4px; }
.knobs legend code { font-weight: 600; }
.knob { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 1px 8px; align-items: center; margin: 8px 0; }
.knob label { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; overflow-wrap: anywhere; }
.knob output { color: var(--dim); font-size: 12px; white-space: nowrap; text-align: right; }
.knob input[type="text"], .knob select { grid-column: 1 / 3; width: 100%; font: inherit; padding: 2px 6px; border: 1px solid var(--rule); border-radius: 4px; background: #fff; }
.knob input[type="checkbox"] { grid-column: 1 / 3; justify-self: start; width: 18px; height: 18px; margin: 2px 0; }
.knob small { grid-column: 1 / 3; color: var(--dim); font-size: 11.5px; line-height: 1.35; }
.knob [aria-invalid="true"] { border-color: #cf222e; background: #fff5f5; }
.knob-error { grid-column: 1 / 3; margin: 4px 0 0; color: #a40e26; font-size: 12.5px; overflow-wrap: anywhere; }
.latency-form[hidden], .knob[hidden] { display: none; }
.knob[data-switch] { margin-left: 14px; }
.status { min-height: 1.6em; color: var(--dim); }
.status progress { vertical-align: middle; width: 140px; }
.error { border: 1px solid #cf222e; background: #fff5f5; color: #a40e26; padding: 8px 12px; border-radius: 6px; overflow-wrap: anywhere; }
.warnings { border: 1px solid #d4a72c; background: #fff8c5; padding: 6px 12px; border-radius: 6px; font-size: 13px; }
.headline { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 10px; margin: 8px 0 16px; }
.card { border: 1px solid var(--rule); border-radius: 6px; padding: 8px 12px; }
.card .label { color: var(--dim); font-size: 12.5px; }
.card .value { font-size: 20px; font-variant-numeric: tabular-nums; }
.card.bad { border-color: #cf222e; box-shadow: inset 3px 0 0 #cf222e; }
.figures { display: flex; flex-wrap: wrap; gap: 16px 32px; align-items: flex-start; }
.keystore { max-width: 430px; }
.breakdown .bars { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: center; }
figcaption { font-weight: 600; margin-bottom: 4px; }
figure dl { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; margin: 6px 0; font-size: 13px; }
figure dt { color: var(--dim); }
figure dd { margin: 0; font-variant-numeric: tabular-nums; }
table.metrics td { padding: 2px 16px 2px 0; font-variant-numeric: tabular-nums; border-bottom: 1px solid var(--bg-alt); }
table.metrics td:first-child { color: var(--dim); }
#command { margin: 4px 0; }
p.saturation { border: 1px solid #cf222e; border-left-width: 4px; background: #fff5f5; padding: 6px 12px; border-radius: 6px; font-size: 13.5px; margin: 0 0 12px; }
#time-charts svg { flex: 1 1 380px; max-width: 560px; height: auto; }
#series-json { max-height: 320px; overflow: auto; }
.knob input[readonly] { background: var(--bg-alt); color: var(--dim); }
.timeline-wrap { overflow-x: auto; }
.timeline-wrap svg { max-width: none; }
.sr-star { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
