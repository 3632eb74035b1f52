// Compare view (docs/analyzer.md, "Compare"): with two or more experiments or groups loaded,
// er_print's `compare on|delta|ratio` function list side by side: per metric column one value
// per side, the later sides as the value, the difference or the ratio to the first (base).
import {formatValue, escapeHtml} from './format.js';
import {selectableRows} from './rows.js';

const flavorShort = {exclusive: 'Excl.', inclusive: 'Incl.'};

// The text of one cell: what er_print's compare mode shows for side s of a column.
export function compareCell(mode, column, side, s) {
  if (s === 0 || mode === 'on') return formatValue(column, side.mean);
  if (mode === 'delta') {
    const d = formatValue(column, Math.abs(side.delta));
    return side.delta > 0 ? `+${d}` : side.delta < 0 ? `-${d}` : d;
  }
  if (side.ratio === null || side.ratio === undefined) return 'N/A';
  return `x${side.ratio.toFixed(3)}`;
}

export function renderCompare(el, d, {onSelect} = {}) {
  const sides = d.sides;
  let h = `<p class="hint" id="compare-sides">Compare (${escapeHtml(d.mode)}): ` +
          sides.map(s => `<b>${s.index}</b> ${escapeHtml(s.path)}`).join(' · ') + ` (base: 1; matched by ${escapeHtml(d.match)})</p>`;
  h += '<table class="metrics" id="compare-table" tabindex="0"><thead><tr>';
  for (const c of d.columns)
    for (const s of sides)
      h += `<th class="num">${flavorShort[c.flavor] || c.flavor} ${escapeHtml(c.metric)} [${s.index}]${s.index > 1 && d.mode !== 'on' ? ' ' + d.mode : ''}</th>`;
  h += '<th class="name">Name</th></tr></thead><tbody>';
  d.rows.forEach((r, i) => {
    h += `<tr data-i="${i}"${r.significant ? ' class="significant"' : ''}>`;
    d.columns.forEach((c, k) => r.values[k].forEach((side, s) => {
      const raw = s === 0 || d.mode === 'on' ? side.mean : d.mode === 'delta' ? side.delta : side.ratio;
      h += `<td class="num" data-col="${k}" data-side="${s}" data-raw="${raw === null ? 'null' : raw}">${compareCell(d.mode, c, side, s)}</td>`;
    }));
    h += `<td class="name">${escapeHtml(r.name)}</td></tr>`;
  });
  el.insertAdjacentHTML('beforeend', h + '</tbody></table>');
  const table = el.querySelector('#compare-table');
  selectableRows(table, {onSelect: i => { if (onSelect) onSelect(d.rows[i]); }});
  return table;
}
