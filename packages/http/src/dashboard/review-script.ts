// The dashboard's review queue, as a string appended to the page script (it uses that script's $, el,
// row, when and api, and refresh() calls loadReviews()): pending requests first, oldest waiting on
// top, with the call, rule, session, agent, age, expiry and notification status (a notice's link,
// #review/<id>, opens the page at its request); approve and deny
// need a reason and go through POST /v1/reviews/{id}/approve|deny with the viewer's token, so the
// server decides who may answer (an operator token; never open mode). Values are written as text.
export const REVIEW_QUEUE_SCRIPT = `
function age(iso) {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return s < 90 ? s + ' s' : s < 5400 ? Math.round(s / 60) + ' min' : s < 172800 ? Math.round(s / 3600) + ' h' : Math.round(s / 86400) + ' d';
}
// How the request was announced (the notify: webhooks), one entry per target; '—' when none is kept.
function notifyText(r) {
  const list = r.notifications;
  if (!Array.isArray(list) || list.length === 0) return '—';
  return list.map((n) => n.target + ': ' + (n.delivered_at ? 'delivered' : n.attempts + ' attempt' + (n.attempts === 1 ? '' : 's') + (n.last_error ? ', last error ' + short(n.last_error, 80) : ''))).join('; ');
}
function answerCell(r) {
  const td = el('td', undefined, 'answer');
  if (r.state !== 'pending') {
    td.textContent = r.answered_by ? r.state + ' by ' + r.answered_by + ': ' + (r.answer_reason || '') : r.state;
    return td;
  }
  const input = el('input'); input.type = 'text'; input.required = true; input.placeholder = 'reason (required)';
  input.setAttribute('aria-label', 'reason for review ' + r.id); input.className = 'reason';
  const approve = el('button', 'approve'); approve.type = 'button'; approve.dataset.answer = 'approve';
  const deny = el('button', 'deny'); deny.type = 'button'; deny.dataset.answer = 'deny';
  td.append(input, approve, deny, el('span', '', 'status meta'));
  return td;
}
let jumpedToReview = false;
async function loadReviews() {
  const [pending, recent] = await Promise.all([api('/v1/reviews?status=pending&limit=100'), api('/v1/reviews?limit=50')]);
  const seen = new Map();
  for (const r of pending.concat(recent)) seen.set(r.id, r);
  const all = [...seen.values()];
  const waiting = all.filter((r) => r.state === 'pending').sort((a, b) => a.created_at.localeCompare(b.created_at));
  const rest = all.filter((r) => r.state !== 'pending').sort((a, b) => b.created_at.localeCompare(a.created_at));
  const body = $('review-rows'); body.replaceChildren();
  for (const r of waiting.concat(rest)) {
    const call = r.call || {};
    const tr = row([cell(r.state, 'state ' + r.state), short((call.tool || '') + (call.action ? '.' + call.action : '') + ' ' + JSON.stringify(call.args || {}), 100), r.rule, r.session, r.agent || '', age(r.created_at), when(r.expires_at), notifyText(r)]);
    tr.append(answerCell(r));
    tr.dataset.review = r.id; tr.dataset.state = r.state; tr.id = 'review-' + r.id;
    body.append(tr);
  }
  if (all.length === 0) body.append(row(['no review requests']));
  // A notice's link (#review-<id>) shows its request once the rows are in.
  const target = !jumpedToReview && location.hash.startsWith('#review-') ? document.getElementById(location.hash.slice(1)) : null;
  if (target) { jumpedToReview = true; target.scrollIntoView({ block: 'center' }); }
  $('review-meta').textContent = waiting.length + ' waiting for a person';
  showLinked();
}
// A notice's link (<dashboard_url>/#review/<id>) opens the page at that request, once per link.
let linked = '';
function showLinked() {
  const id = location.hash.startsWith('#review/') ? location.hash.slice(8) : '';
  if (!id || linked === id) return;
  const tr = [...$('review-rows').rows].find((r) => r.dataset.review === id);
  if (!tr) return;
  linked = id;
  tr.classList.add('linked');
  tr.scrollIntoView({ block: 'center' });
  const input = tr.querySelector('input.reason');
  if (input) input.focus();
}
window.addEventListener('hashchange', showLinked);
async function answerReview(tr, action) {
  const input = tr.querySelector('input.reason');
  const status = tr.querySelector('.status');
  const reason = input.value.trim();
  if (!reason) { status.textContent = 'a reason is required'; input.focus(); return; }
  for (const b of tr.querySelectorAll('button')) b.disabled = true;
  status.textContent = action === 'approve' ? 'approving…' : 'denying…';
  try {
    await api('/v1/reviews/' + encodeURIComponent(tr.dataset.review) + '/' + action, { method: 'POST', body: { reason: reason } });
    await loadReviews();
  } catch (e) {
    status.textContent = String(e.message || e);
    for (const b of tr.querySelectorAll('button')) b.disabled = false;
  }
}
$('review-rows').addEventListener('click', (ev) => {
  const b = ev.target.closest && ev.target.closest('button[data-answer]');
  if (b) answerReview(b.closest('tr'), b.dataset.answer);
});
$('review-rows').addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter' && ev.target.classList && ev.target.classList.contains('reason')) ev.preventDefault();
});
`;
