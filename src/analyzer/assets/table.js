// Metric tables (Functions, Callers-Callees, Lines, PCs): er_print's columns and rows, one
// <tr> per row, keyboard navigation (Up/Down/Home/End/Enter), selection by function id.
import {formatValue, columnTitle, escapeHtml} from './format.js';
import {selectableRows} from './rows.js';

// Rows shown before "Show all": a list of 100 000 lines or PCs would take the browser seconds.
export const kRowCap = 2000;

// rows: [{id?, name, values}]; opts: {selectedId, onSelect(row), onActivate(row), onContext(row, ev), cls}
export function renderTable(container, columns, allRows, opts = {}) {
  const rows = opts.all || allRows.length <= kRowCap ? allRows : allRows.slice(0, kRowCap);
  const table = document.createElement('table');
  table.className = 'metrics ' + (opts.cls || '');
  table.tabIndex = 0;
  const head = columns.map(c => `<th class="num" title="${escapeHtml(c.title)}">${escapeHtml(columnTitle(c))}</th>`).join('');
  let body = '';
  rows.forEach((r, i) => {
    const cells = columns.map((c, k) => `<td class="num">${formatValue(c, r.values ? r.values[k] : null)}</td>`).join('');
    const sel = opts.selectedId !== undefined && r.id === opts.selectedId && r.id !== undefined;
    body += `<tr data-i="${i}"${r.id !== undefined ? ` data-id="${r.id}"` : ''}${sel ? ' class="selected"' : ''}>${cells}<td class="name">${escapeHtml(r.name)}</td></tr>`;
  });
  table.innerHTML = `<thead><tr>${head}<th class="name">Name</th></tr></thead><tbody>${body}</tbody>`;
  container.appendChild(table);
  if (rows.length < allRows.length) {
    const more = document.createElement('button');
    more.className = 'show-all';
    more.textContent = `Show all ${allRows.length} rows (${kRowCap} shown)`;
    more.addEventListener('click', () => {
      const t = renderTable(document.createDocumentFragment(), columns, allRows, {...opts, all: true});
      t.id = table.id;
      table.replaceWith(t);
      more.remove();
    });
    container.appendChild(more);
  }
  const select = selectableRows(table, {
    onSelect: i => { if (opts.onSelect) opts.onSelect(rows[i]); },
    onActivate: opts.onActivate ? i => opts.onActivate(rows[i]) : undefined,
  });
  table.addEventListener('contextmenu', ev => {
    const tr = ev.target.closest('tr[data-i]');
    if (!tr || !opts.onContext) return;
    ev.preventDefault();
    select(+tr.dataset.i);
    opts.onContext(rows[+tr.dataset.i], ev);
  });
  return table;
}
