// Source and Disassembly listings (er_print's source/disasm JSON): metric columns, the line
// text, `##` hot lines, index and commentary lines, marks in a scroll bar, next hot line (n).
import {formatValue, columnTitle, escapeHtml} from './format.js';

export function renderListing(container, data) {
  const wrap = document.createElement('div');
  wrap.className = 'listing-wrap';
  const head = document.createElement('div');
  head.className = 'listing-head';
  head.textContent = [data.source_file && `Source file: ${data.source_file}`, data.object_file && `Object file: ${data.object_file}`,
                      data.load_object && `Load object: ${data.load_object}`].filter(Boolean).join('   ');
  container.appendChild(head);
  for (const m of data.messages || []) {
    const p = document.createElement('div');
    p.className = 'commentary';
    p.textContent = m;
    container.appendChild(p);
  }
  const table = document.createElement('table');
  table.className = 'metrics listing';
  table.tabIndex = 0;
  const cols = data.columns || [];
  let body = '';
  (data.rows || []).forEach((r, i) => {
    const cells = cols.map((c, k) => `<td class="num">${r.values ? formatValue(c, r.values[k]) : ''}</td>`).join('');
    body += `<tr data-i="${i}" class="${r.kind}${r.hot ? ' hot' : ''}"><td class="mark">${r.hot ? '##' : ''}</td>${cells}<td class="text">${escapeHtml(r.text)}</td></tr>`;
  });
  table.innerHTML = `<thead><tr><th></th>${cols.map(c => `<th class="num">${escapeHtml(columnTitle(c))}</th>`).join('')}<th>Text</th></tr></thead><tbody>${body}</tbody>`;
  wrap.appendChild(table);
  // Scroll-bar marks: one tick per hot line, at its place in the listing.
  const marks = document.createElement('div');
  marks.className = 'scroll-marks';
  const n = (data.rows || []).length;
  const hot = [];
  (data.rows || []).forEach((r, i) => { if (r.hot) hot.push(i); });
  for (const i of hot) {
    const m = document.createElement('div');
    m.className = 'scroll-mark';
    m.style.top = `${100 * i / Math.max(1, n)}%`;
    m.addEventListener('click', () => table.tBodies[0].rows[i].scrollIntoView({block: 'center'}));
    marks.appendChild(m);
  }
  wrap.appendChild(marks);
  container.appendChild(wrap);
  let at = -1;
  const gotoHot = dir => {
    if (!hot.length) return;
    const next = dir > 0 ? hot.find(i => i > at) ?? hot[0] : [...hot].reverse().find(i => i < at) ?? hot[hot.length - 1];
    if (at >= 0) table.tBodies[0].rows[at].classList.remove('selected');
    at = next;
    const tr = table.tBodies[0].rows[at];
    tr.classList.add('selected');
    tr.scrollIntoView({block: 'center'});
  };
  table.addEventListener('keydown', ev => {
    if (ev.key === 'n') gotoHot(1);
    else if (ev.key === 'p') gotoHot(-1);
  });
  const btn = document.createElement('button');
  btn.textContent = 'Next hot line (n)';
  btn.id = 'next-hot';
  btn.addEventListener('click', () => gotoHot(1));
  container.insertBefore(btn, wrap);
  return table;
}
