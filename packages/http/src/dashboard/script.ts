// The dashboard's browser script, as a string: plain ES2020, no build step. It reads the same API any
// client does and writes every value with textContent, so no audit field can inject markup.
export const DASHBOARD_SCRIPT = `
const $ = (id) => document.getElementById(id);
const store = window.sessionStorage;
function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; }
async function api(path) {
  const headers = {};
  const token = store.getItem('tollgate-token');
  if (token) headers.authorization = 'Bearer ' + token;
  const res = await fetch(path, { headers });
  if (res.status === 401) { $('login').hidden = false; throw new Error('a token is needed'); }
  const body = await res.json();
  if (!res.ok) throw new Error(body.detail || res.statusText);
  return body;
}
function pct(x) { return x === null ? '—' : (x * 100).toFixed(1) + '%'; }
function groupRow(name, g) {
  const tr = el('tr');
  for (const v of [name, g.decisions, g.by_outcome.pass, g.by_outcome.dispatch, g.by_outcome.declined, g.by_outcome.rejected,
    pct(g.decline_rate), g.claims.matched, g.claims.mismatched, g.claims.unverifiable, pct(g.accuracy)]) tr.append(el('td', v));
  return tr;
}
function renderReport(r) {
  const body = $('report-rows'); body.replaceChildren(groupRow('all', r.totals));
  for (const [k, g] of Object.entries(r.by_agent)) body.append(groupRow('agent ' + k, g));
  for (const [k, g] of Object.entries(r.by_rule)) body.append(groupRow('rule ' + k, g));
  $('report-meta').textContent = r.rows + ' rows, generated ' + r.generated_at;
}
function renderRows(rows) {
  const body = $('decision-rows'); body.replaceChildren();
  const decisions = rows.filter((r) => r.kind === 'decision').reverse();
  for (const r of decisions) {
    const tr = el('tr'); tr.dataset.outcome = r.outcome || '';
    tr.append(el('td', r.at.replace('T', ' ').slice(0, 19)), el('td', r.session), el('td', r.agent || ''),
      el('td', r.tool + (r.action ? '.' + r.action : '')), el('td', r.outcome, 'outcome ' + r.outcome),
      el('td', (r.rules || []).join(', ')), el('td', (r.reasons || []).join(', ')));
    body.append(tr);
  }
  $('decision-meta').textContent = decisions.length + ' recent decisions';
}
function renderChain(c) {
  const e = $('chain');
  e.textContent = c.ok ? 'chain verified: ' + c.rows + ' rows' : 'chain BROKEN at seq ' + c.broken_at.seq + ': ' + c.broken_at.problem;
  e.className = c.ok ? 'good' : 'bad';
}
async function refresh() {
  $('error').textContent = '';
  try {
    const [rows, report, chain] = await Promise.all([api('/v1/audit?limit=50'), api('/v1/report'), api('/v1/audit/verify')]);
    renderRows(rows); renderReport(report); renderChain(chain);
    $('login').hidden = true; document.body.dataset.loaded = 'true';
  } catch (e) { $('error').textContent = String(e.message || e); }
}
$('login').addEventListener('submit', (ev) => { ev.preventDefault(); store.setItem('tollgate-token', $('token').value); refresh(); });
$('refresh').addEventListener('click', refresh);
refresh();
setInterval(refresh, 10000);
`;
