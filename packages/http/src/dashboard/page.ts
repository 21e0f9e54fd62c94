// GET /: the dashboard, one self-contained page (inline style and script, charts drawn as SVG by the
// script, no build step, nothing fetched from elsewhere, no data in the HTML itself: the script
// fetches it with the viewer's token). The CSP admits only this script and this style, by hash.
import { createHash } from 'node:crypto';
import { REVIEW_QUEUE_SCRIPT } from './review-script.js';
import { DASHBOARD_SCRIPT } from './script.js';

// One script: the queue's functions are declarations, so refresh() may call them wherever they sit.
const SCRIPT = `${DASHBOARD_SCRIPT}${REVIEW_QUEUE_SCRIPT}`;

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1d1d1f; }
h1 { font-size: 1.3rem; margin: 0 0 .25rem; } h2 { font-size: 1.05rem; margin: 1.5rem 0 .4rem; } h3 { font-size: .95rem; margin: .8rem 0 .3rem; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #e3e3e8; vertical-align: top; }
th { background: #f5f5f7; font-weight: 600; } .meta { color: #6e6e73; font-size: .85rem; }
.good { color: #137333; font-weight: 600; } .bad { color: #b3261e; font-weight: 600; }
.outcome.rejected, .claim.mismatched { color: #b3261e; } .outcome.dispatch, .claim.matched { color: #137333; } .outcome.declined { color: #8a5a00; }
#error { color: #b3261e; } form { margin: .5rem 0; } button { margin-left: .5rem; } label { margin-right: 1rem; }
.open { cursor: pointer; } .open:hover, .open:focus { background: #eef3fd; outline: 2px solid #1a73e8; outline-offset: -2px; }
#totals { display: flex; flex-wrap: wrap; gap: .5rem; } .figure { border: 1px solid #e3e3e8; border-radius: 6px; padding: .4rem .7rem; min-width: 7rem; }
.figure .value { display: block; font-size: 1.2rem; font-weight: 600; } .figure .label { color: #6e6e73; font-size: .8rem; }
#series svg { width: 100%; max-width: 760px; height: auto; } .axis { stroke: #aaa; } .tick { font-size: 10px; fill: #6e6e73; }
.o-pass { fill: #c7c7cc; background: #c7c7cc; } .o-dispatch { fill: #34a853; background: #34a853; } .o-declined { fill: #f9ab00; background: #f9ab00; } .o-rejected { fill: #d93025; background: #d93025; }
.legend .key { display: inline-block; padding: 0 .5rem; margin-right: .5rem; color: #fff; border-radius: 3px; font-size: .8rem; }
.rate svg .track { fill: #eee; } .rate svg .fill { fill: #1a73e8; }
.state.pending { color: #8a5a00; font-weight: 600; } .state.approved, .state.used { color: #137333; } .state.denied, .state.expired { color: #b3261e; }
#review-rows input.reason { width: 14rem; } #review-rows tr.linked { outline: 2px solid #1a73e8; outline-offset: -2px; } #review-rows .status { margin-left: .5rem; }
.predicted { color: #1a73e8; } .observed { color: #b3261e; }
.columns { display: grid; grid-template-columns: 1fr 1fr; gap: 1.5rem; } .flag ul { margin: 0; padding-left: 1.2rem; }
#detail { position: fixed; top: 0; right: 0; bottom: 0; width: min(52rem, 95vw); overflow: auto; background: #fff; border-left: 1px solid #c7c7cc; padding: 1rem 1.5rem; box-shadow: -4px 0 16px rgba(0,0,0,.15); }
#detail pre { background: #f5f5f7; padding: .5rem; overflow: auto; max-height: 16rem; } dl { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: 0; } dt { color: #6e6e73; }
`;

const BODY = `
<h1>Tollgate</h1>
<div><span id="chain" class="meta">chain: checking…</span><button id="refresh" type="button">refresh</button></div>
<form id="login" hidden><label>Operator token <input id="token" type="password" autocomplete="off"></label><button>use</button></form>
<form id="filters" aria-label="filters">
<label>Window <select id="f-window"><option value="1">last 24 hours</option><option value="7" selected>last 7 days</option><option value="30">last 30 days</option><option value="all">all time</option></select></label>
<label>Agent <select id="f-agent"><option value="">all agents</option></select></label>
<label>Rule <select id="f-rule"><option value="">all rules</option></select></label>
</form>
<p id="error" role="alert"></p>
<h2>Review queue</h2><p id="review-meta" class="meta"></p>
<table><thead><tr><th>state</th><th>call</th><th>rule</th><th>session</th><th>agent</th><th>age</th><th>expires (UTC)</th><th>notified</th><th>answer</th></tr></thead>
<tbody id="review-rows"></tbody></table>
<h2>Calibration</h2><p id="report-meta" class="meta"></p>
<div id="totals" aria-live="polite"></div>
<h2>Outcome mix per day</h2><div id="series"></div>
<div class="columns">
<div><h2>Per agent</h2>
<table><thead><tr><th>agent</th><th>decisions</th><th>rejected</th><th>decline rate</th><th>accuracy</th><th>Brier</th></tr></thead><tbody id="agent-rows"></tbody></table></div>
<div><h2>Flags</h2><div id="flags"></div></div>
</div>
<h2>Rules</h2>
<table><thead><tr><th>rule</th><th>fires</th><th>last fired (UTC)</th><th>refusals</th><th>→ prediction</th><th>→ decline</th><th>→ override</th><th>→ nothing</th><th>decline rate</th><th>accuracy</th></tr></thead>
<tbody id="rule-rows"></tbody></table><p id="never-fired" class="meta"></p>
<h2>Latest mismatches: predicted vs observed</h2>
<table><thead><tr><th>time (UTC)</th><th>agent</th><th>rules</th><th>subject</th><th>op</th><th>predicted</th><th>observed</th></tr></thead><tbody id="mismatch-rows"></tbody></table>
<h2>Recent decisions</h2><p id="decision-meta" class="meta"></p>
<table><thead><tr><th>time (UTC)</th><th>session</th><th>agent</th><th>tool</th><th>outcome</th><th>rules</th><th>reasons</th></tr></thead>
<tbody id="decision-rows"></tbody></table>
<aside id="detail" hidden role="dialog" aria-labelledby="detail-title"><button id="detail-close" type="button">close (Esc)</button><h2 id="detail-title">Decision</h2><div id="detail-body"></div></aside>
`;

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tollgate</title><style>${STYLE}</style></head>
<body>${BODY}<script>${SCRIPT}</script></body></html>
`;

const hash = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "connect-src 'self'",
  `script-src 'sha256-${hash(SCRIPT)}'`,
  `style-src 'sha256-${hash(STYLE)}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
