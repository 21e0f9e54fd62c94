// GET /: the dashboard, one self-contained page (inline style and script, no build step, no data in
// the HTML itself: the script fetches it with the viewer's token). The CSP admits only this script.
import { createHash } from 'node:crypto';
import { DASHBOARD_SCRIPT } from './script.js';

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1d1d1f; }
h1 { font-size: 1.3rem; margin: 0 0 .25rem; } h2 { font-size: 1.05rem; margin: 1.5rem 0 .4rem; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #e3e3e8; }
th { background: #f5f5f7; font-weight: 600; } .meta { color: #6e6e73; font-size: .85rem; }
.good { color: #137333; font-weight: 600; } .bad { color: #b3261e; font-weight: 600; }
.outcome.rejected { color: #b3261e; } .outcome.dispatch { color: #137333; } .outcome.declined { color: #8a5a00; }
#error { color: #b3261e; } form { margin: 1rem 0; } button { margin-left: .5rem; }
`;

const BODY = `
<h1>Tollgate</h1>
<div><span id="chain" class="meta">chain: checking…</span><button id="refresh" type="button">refresh</button></div>
<form id="login" hidden><label>Operator token <input id="token" type="password" autocomplete="off"></label><button>use</button></form>
<p id="error" role="alert"></p>
<h2>Calibration</h2><p id="report-meta" class="meta"></p>
<table><thead><tr><th>group</th><th>decisions</th><th>pass</th><th>dispatch</th><th>declined</th><th>rejected</th>
<th>decline rate</th><th>matched</th><th>mismatched</th><th>unverifiable</th><th>accuracy</th></tr></thead><tbody id="report-rows"></tbody></table>
<h2>Recent decisions</h2><p id="decision-meta" class="meta"></p>
<table><thead><tr><th>time (UTC)</th><th>session</th><th>agent</th><th>tool</th><th>outcome</th><th>rules</th><th>reasons</th></tr></thead>
<tbody id="decision-rows"></tbody></table>
`;

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tollgate</title><style>${STYLE}</style></head>
<body>${BODY}<script>${DASHBOARD_SCRIPT}</script></body></html>
`;

const hash = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "connect-src 'self'",
  `script-src 'sha256-${hash(DASHBOARD_SCRIPT)}'`,
  `style-src 'sha256-${hash(STYLE)}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
