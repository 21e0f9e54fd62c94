// The dashboard's browser script, as a string: plain ES2020, no build step, no library. It reads the
// same API any client does (/v1/report, /v1/audit, /v1/audit/{id}, /v1/audit/verify; the review queue
// in review-script.ts, /v1/reviews), draws its
// charts as SVG itself (works offline), and writes every value with textContent or an SVG attribute,
// so no audit field can inject markup. Rows open the whole decision with a click, Enter or Space.
export const DASHBOARD_SCRIPT = `
const $ = (id) => document.getElementById(id);
const store = window.sessionStorage;
const SVG = 'http://www.w3.org/2000/svg';
const OUTCOMES = ['pass', 'dispatch', 'declined', 'rejected'];
function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined && text !== null) e.textContent = String(text); if (cls) e.className = cls; return e; }
function svg(tag, attrs) { const e = document.createElementNS(SVG, tag); for (const k in attrs) e.setAttribute(k, String(attrs[k])); return e; }
async function api(path, options) {
  const headers = {};
  const token = store.getItem('tollgate-token');
  if (token) headers.authorization = 'Bearer ' + token;
  const init = { headers };
  if (options && options.method) init.method = options.method;
  if (options && options.body !== undefined) { headers['content-type'] = 'application/json'; init.body = JSON.stringify(options.body); }
  const res = await fetch(path, init);
  if (res.status === 401) { $('login').hidden = false; throw new Error('a token is needed'); }
  const body = await res.json();
  if (!res.ok) throw new Error(body.detail || res.statusText);
  return body;
}
function pct(x) { return x === null || x === undefined ? '—' : (x * 100).toFixed(1) + '%'; }
function num(x) { return x === null || x === undefined ? '—' : String(x); }
function short(v, n) { const s = typeof v === 'string' ? v : JSON.stringify(v); return s.length > n ? s.slice(0, n - 1) + '…' : s; }
function when(iso) { return iso ? iso.replace('T', ' ').slice(0, 19) : '—'; }
function row(cells, id) {
  const tr = el('tr');
  for (const c of cells) tr.append(typeof c === 'object' && c !== null && c.nodeType ? c : el('td', c));
  if (id) { tr.dataset.id = id; tr.tabIndex = 0; tr.className = 'open'; }
  return tr;
}
function cell(text, cls) { return el('td', text, cls); }

function query() {
  const p = new URLSearchParams();
  const days = $('f-window').value;
  if (days !== 'all') p.set('since', String(Date.now() - Number(days) * 86400000));
  if ($('f-agent').value) p.set('agent', $('f-agent').value);
  if ($('f-rule').value) p.set('rule', $('f-rule').value);
  return p.toString();
}
function fillSelect(sel, values) {
  const keep = sel.value;
  const first = sel.options[0];
  sel.replaceChildren(first);
  for (const v of values) { const o = el('option', v); o.value = v; sel.append(o); }
  if (values.includes(keep)) sel.value = keep;
}

function renderTotals(r) {
  const t = r.totals;
  const figures = [
    ['decisions', t.decisions], ['dispatched', t.by_outcome.dispatch], ['declined', t.by_outcome.declined],
    ['rejected', t.by_outcome.rejected], ['decline rate', pct(t.rates.decline)], ['rejection rate', pct(t.rates.rejection)],
    ['override rate', pct(t.rates.override)], ['escalation rate', pct(t.rates.escalation)], ['accuracy', pct(t.accuracy)],
    ['all claims matched', pct(t.predictions.all_matched)], ['unverifiable', pct(t.predictions.unverifiable)], ['Brier score', num(t.brier.score)],
  ];
  const box = $('totals'); box.replaceChildren();
  for (const [name, value] of figures) {
    const d = el('div', undefined, 'figure'); d.dataset.figure = name;
    d.append(el('span', value, 'value'), el('span', name, 'label'));
    box.append(d);
  }
  $('report-meta').textContent = r.rows + ' rows, ' + (r.window.since ? 'since ' + when(r.window.since) : 'all time') + ', generated ' + when(r.generated_at) + ' UTC';
}

function renderSeries(r) {
  const chart = $('series'); chart.replaceChildren();
  const days = r.series;
  if (days.length === 0) { chart.append(el('p', 'no decisions in this window', 'meta')); return; }
  const W = 720, H = 180, pad = 28;
  const max = Math.max(1, ...days.map((d) => d.decisions));
  const bw = Math.min(40, Math.max(4, Math.floor((W - pad) / days.length) - 4));
  const s = svg('svg', { viewBox: '0 0 ' + W + ' ' + (H + 24), role: 'img', 'aria-label': 'decisions per day by outcome' });
  s.append(svg('line', { x1: pad, y1: H, x2: W, y2: H, class: 'axis' }));
  const top = svg('text', { x: 0, y: 10, class: 'tick' }); top.textContent = String(max); s.append(top);
  days.forEach((d, i) => {
    const x = pad + i * (bw + 4);
    let y = H;
    const g = svg('g', { class: 'bar' }); g.dataset.day = d.key; g.dataset.decisions = String(d.decisions);
    for (const o of OUTCOMES) {
      const n = d.by_outcome[o];
      if (n === 0) continue;
      const h = (n / max) * (H - 12);
      y -= h;
      const rect = svg('rect', { x: x, y: y, width: bw, height: Math.max(h, 1), class: 'o-' + o });
      const title = svg('title', {}); title.textContent = d.key + ': ' + n + ' ' + o; rect.append(title);
      g.append(rect);
    }
    if (days.length <= 31 && (i % Math.ceil(days.length / 10) === 0)) {
      const label = svg('text', { x: x, y: H + 16, class: 'tick' }); label.textContent = d.key.slice(5); g.append(label);
    }
    s.append(g);
  });
  chart.append(s);
  const legend = el('p', undefined, 'legend');
  for (const o of OUTCOMES) { const k = el('span', o, 'key o-' + o); legend.append(k); }
  chart.append(legend);
}

function rateBar(x) {
  const td = el('td', undefined, 'rate');
  if (x === null || x === undefined) { td.textContent = '—'; return td; }
  const s = svg('svg', { viewBox: '0 0 60 8', width: 60, height: 8, 'aria-hidden': 'true' });
  s.append(svg('rect', { x: 0, y: 0, width: 60, height: 8, class: 'track' }), svg('rect', { x: 0, y: 0, width: Math.round(x * 60), height: 8, class: 'fill' }));
  td.append(s, document.createTextNode(' ' + pct(x)));
  return td;
}

function renderAgents(r) {
  const body = $('agent-rows'); body.replaceChildren();
  for (const [k, g] of Object.entries(r.by_agent)) {
    const tr = row([k, g.decisions, g.by_outcome.rejected]);
    tr.append(rateBar(g.rates.decline), rateBar(g.accuracy), cell(num(g.brier.score)));
    tr.dataset.agent = k;
    body.append(tr);
  }
}

function renderRules(r) {
  const body = $('rule-rows'); body.replaceChildren();
  for (const x of r.rules) {
    const tr = row([x.rule, x.fires, when(x.last_fired), x.refusals, x.ended.prediction, x.ended.decline, x.ended.override, x.ended.nothing]);
    tr.append(rateBar(x.rates.decline), rateBar(x.accuracy));
    tr.dataset.rule = x.rule;
    body.append(tr);
  }
  $('never-fired').textContent = r.never_fired.length ? 'never fired in this window: ' + r.never_fired.join(', ') : 'every rule fired in this window';
}

function renderMismatches(r) {
  const body = $('mismatch-rows'); body.replaceChildren();
  for (const m of r.mismatches) {
    body.append(row([when(m.at), m.agent || '', m.rules.join(', '), short(m.subject, 60), m.op, cell(short(m.predicted, 60), 'predicted'), cell(m.observed === null ? '—' : short(m.observed, 80), 'observed')], m.audit_id));
  }
  if (r.mismatches.length === 0) body.append(row(['no mismatches in this window']));
}

function renderFlags(r) {
  const box = $('flags'); box.replaceChildren();
  const names = { perfunctory: 'perfunctory predictions', declined_while_queryable: 'declined while queryable', repeated: 'repeated after a decline' };
  for (const key of Object.keys(names)) {
    const f = r.flags[key];
    const section = el('div', undefined, 'flag'); section.dataset.flag = key;
    section.append(el('h3', names[key] + ': ' + f.count));
    const list = el('ul');
    for (const x of f.rows) {
      const li = el('li', when(x.at) + '  ' + (x.agent || '') + '  ' + x.rules.join(', ') + (x.seconds_after_rejection !== undefined ? '  (' + x.seconds_after_rejection + ' s after the refusal)' : ''), 'open');
      li.dataset.id = x.audit_id; li.tabIndex = 0;
      list.append(li);
    }
    section.append(list);
    box.append(section);
  }
}

function renderRows(rows) {
  const body = $('decision-rows'); body.replaceChildren();
  const decisions = rows.filter((r) => r.kind === 'decision').reverse();
  for (const r of decisions) {
    const tr = row([when(r.at), r.session, r.agent || '', r.tool + (r.action ? '.' + r.action : ''), cell(r.outcome, 'outcome ' + r.outcome), (r.rules || []).join(', '), (r.reasons || []).join(', ')], r.id);
    tr.dataset.outcome = r.outcome || '';
    body.append(tr);
  }
  $('decision-meta').textContent = decisions.length + ' recent decisions';
}

let chain = null;
function renderChain(c) {
  chain = c;
  const e = $('chain');
  e.textContent = c.ok ? 'chain verified: ' + c.rows + ' rows' : 'chain BROKEN at seq ' + c.broken_at.seq + ': ' + c.broken_at.problem;
  e.className = c.ok ? 'good' : 'bad';
}

function section(title, children) { const s = el('section'); s.append(el('h3', title), ...children); return s; }
function kv(pairs) { const dl = el('dl'); for (const [k, v] of pairs) { if (v === undefined || v === null || v === '') continue; dl.append(el('dt', k), el('dd', v)); } return dl; }
function claimsTable(claims) {
  const t = el('table'); const head = row(['subject', 'op', 'predicted', 'confidence', 'observed', 'result']); t.append(head);
  for (const c of claims) t.append(row([short(c.claim.subject, 80), c.claim.op, 'value' in c.claim ? short(c.claim.value, 60) : '', num(c.claim.confidence), c.observed === undefined ? '—' : short(c.observed, 120), cell(c.result, 'claim ' + c.result)]));
  return t;
}

let opener = null;
async function openDetail(id) {
  opener = document.activeElement;
  const panel = $('detail');
  const body = $('detail-body');
  body.replaceChildren(el('p', 'loading…', 'meta'));
  panel.hidden = false;
  $('detail-close').focus();
  try {
    const v = await api('/v1/audit/' + encodeURIComponent(id));
    panel.dataset.id = v.id;
    const parts = [];
    $('detail-title').textContent = 'Decision ' + v.id;
    parts.push(kv([['time', when(v.at) + ' UTC'], ['session', v.session], ['agent', v.agent], ['tool', v.tool + (v.action ? '.' + v.action : '')], ['class', v.class], ['outcome', v.outcome + (v.dry_run ? ' (dry look)' : '')], ['mode', v.mode], ['escalation', v.escalation], ['override', v.override_id], ['directive → action', v.directive_latency_ms !== undefined ? v.directive_latency_ms + ' ms' : '']]));
    const call = el('pre', JSON.stringify(v.call || {}, null, 2), 'call');
    parts.push(section('call', [call]));
    parts.push(section('rules', [el('p', (v.rules || []).join(', ') || 'none')]));
    if (v.reasons && v.reasons.length) parts.push(section('reasons', [el('p', v.reasons.join(', '))]));
    if (v.prediction) {
      const items = [kv([['prediction', v.prediction_id], ['rationale', v.prediction.rationale]])];
      const t = el('table'); t.append(row(['subject', 'op', 'value', 'confidence']));
      for (const c of v.prediction.claims) t.append(row([short(c.subject, 80), c.op, 'value' in c ? short(c.value, 60) : '', num(c.confidence)]));
      items.push(t);
      parts.push(section('prediction', items));
    }
    if (v.decline) parts.push(section('decline', [kv([['irreducible', v.decline.irreducible], ['would change my mind', (v.decline.would_change_my_mind || []).join('; ')]])]));
    if (v.suggested_reads) {
      const t = el('table'); t.id = 'detail-suggested'; t.append(row(['suggested read', 'made before the decline']));
      for (const r of v.suggested_reads) t.append(row([short(r.source, 100), r.attempted ? 'yes' : 'no']));
      const made = v.suggested_reads.filter((r) => r.attempted).length;
      parts.push(section('suggested reads (' + made + ' of ' + v.suggested_reads.length + ' made)', [t]));
    }
    const ev = el('table'); ev.id = 'detail-evidence'; ev.append(row(['observation', 'source', 'age']));
    for (const e of v.evidence || []) { const tr = row([e.observation, e.source === undefined ? '' : short(e.source, 100), e.age_s + ' s']); tr.className = 'evidence'; ev.append(tr); }
    parts.push(section('evidence (' + (v.evidence || []).length + ')', [ev]));
    if (v.result || v.claims) {
      const items = [kv([['result', v.result ? v.result.status + (v.result.exit_code !== undefined ? ' (exit ' + v.result.exit_code + ')' : '') : ''], ['summary', v.result && v.result.summary]])];
      if (v.claims) items.push(claimsTable(v.claims));
      parts.push(section('outcome', items));
    }
    parts.push(section('chain', [kv([['seq', v.seq], ['hash', v.hash], ['status', chain ? (chain.ok ? 'verified (' + chain.rows + ' rows)' : 'BROKEN at seq ' + chain.broken_at.seq) : 'not checked (operators only)']])]));
    body.replaceChildren(...parts);
    panel.dataset.loaded = 'true';
  } catch (e) { body.replaceChildren(el('p', String(e.message || e), 'bad')); }
}
function closeDetail() {
  const panel = $('detail'); panel.hidden = true; delete panel.dataset.loaded;
  if (opener && opener.focus) opener.focus();
}
document.addEventListener('click', (ev) => { const t = ev.target.closest && ev.target.closest('[data-id].open'); if (t) openDetail(t.dataset.id); });
document.addEventListener('keydown', (ev) => {
  if (ev.key === 'Escape' && !$('detail').hidden) { closeDetail(); return; }
  const t = ev.target;
  if ((ev.key === 'Enter' || ev.key === ' ') && t.dataset && t.dataset.id && t.classList.contains('open')) { ev.preventDefault(); openDetail(t.dataset.id); }
});
$('detail-close').addEventListener('click', closeDetail);

async function refresh() {
  $('error').textContent = '';
  try {
    const q = query();
    const [rows, report] = await Promise.all([api('/v1/audit?limit=50'), api('/v1/report?' + q)]);
    renderRows(rows); renderTotals(report); renderSeries(report); renderAgents(report); renderRules(report);
    renderMismatches(report); renderFlags(report);
    if (!$('f-agent').value) fillSelect($('f-agent'), Object.keys(report.by_agent));
    if (!$('f-rule').value) fillSelect($('f-rule'), report.rules.map((x) => x.rule).concat(report.never_fired).sort());
    try { renderChain(await api('/v1/audit/verify')); } catch (e) { $('chain').textContent = 'chain: ' + String(e.message || e); }
    try { await loadReviews(); } catch (e) { $('review-meta').textContent = 'reviews: ' + String(e.message || e); }
    $('login').hidden = true; document.body.dataset.loaded = 'true'; document.body.dataset.query = q;
  } catch (e) { $('error').textContent = String(e.message || e); }
}
$('login').addEventListener('submit', (ev) => { ev.preventDefault(); store.setItem('tollgate-token', $('token').value); refresh(); });
$('filters').addEventListener('change', () => { document.body.dataset.loaded = 'false'; refresh(); });
$('filters').addEventListener('submit', (ev) => { ev.preventDefault(); refresh(); });
$('refresh').addEventListener('click', refresh);
refresh();
// The periodic refresh waits while a person is typing a review's reason (a redraw would drop it).
const typing = () => [...document.querySelectorAll('#review-rows input.reason')].some((i) => i.value !== '');
setInterval(() => { if ($('detail').hidden && !typing()) refresh(); }, 30000);
`;
