/** One self-contained HTML document: inline stylesheet, system fonts, no external URL. */
import { printable } from '../scenario/printable.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text made safe for HTML content and attribute values: unprintable characters written as
 * `\u202e` and the like, as on a terminal (a bidirectional override in a file name would
 * reorder the page as a reader sees it), line breaks kept (a `<pre>` of YAML has them).
 */
export function escapeHtml(text: string): string {
  return text.split('\n').map(printable).join('\n').replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** The system font stack: no web font to fetch. */
export const FONT_STACK = 'system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif';

const STYLE = `
:root { color-scheme: light; --fg: #1b1f24; --dim: #57606a; --rule: #d0d7de; --bg-alt: #f6f8fa; --accent: #d1495b; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 24px; font: 14px/1.5 ${FONT_STACK}; color: var(--fg); background: #fff; }
h1 { font-size: 22px; margin: 0 0 8px; }
h2 { font-size: 17px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--rule); }
p, dl { margin: 8px 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; }
dl.facts dt { color: var(--dim); }
dl.facts dd { margin: 0; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: var(--bg-alt); padding: 8px 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
.note { color: var(--dim); max-width: 80ch; }
.charts { display: flex; flex-wrap: wrap; gap: 16px 24px; align-items: flex-start; }
figure { margin: 0; }
svg { max-width: 100%; height: auto; }
table.data { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
table.data th, table.data td { padding: 2px 8px; border-bottom: 1px solid var(--rule); text-align: right; white-space: nowrap; }
table.data th { position: sticky; top: 0; background: #fff; white-space: normal; vertical-align: bottom; }
table.data .param { text-align: left; }
table.data tr.front td { background: #fdecee; }
.scroll { overflow: auto; max-width: 100%; max-height: 85vh; border-bottom: 1px solid var(--rule); }
footer { margin-top: 32px; color: var(--dim); font-size: 12px; }
`;

/** A complete document: `bodyHtml` is inserted as is; `title` is escaped. */
export function htmlPage(title: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${bodyHtml}
</body>
</html>
`;
}
