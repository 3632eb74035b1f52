// Cell text exactly as er_print's text reports print a JSON value (docs/er_print.md): times
// in seconds with 3 decimals, percentages with 2, "0." for zero, counts and bytes as integers.
export function formatValue(column, v) {
  if (v === null || v === undefined) return '';
  if (column.unit === 'percent') return v === 0 ? '0.' : v.toFixed(2);
  if (column.unit === 'ns') return v === 0 ? '0.' : (v / 1e9).toFixed(3);
  return String(v);
}

const flavorShort = {exclusive: 'Excl.', inclusive: 'Incl.', attributed: 'Attr.', static: ''};

export function columnTitle(c) {
  const unit = c.unit === 'percent' ? '%' : c.unit === 'ns' ? 'sec.' : c.unit;
  return `${flavorShort[c.flavor] ?? c.flavor} ${c.title} (${unit})`;
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, ch => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[ch]));
}

// First column of a flavor in nanoseconds/bytes/count (not percent), or -1.
export function valueColumn(columns, flavor) {
  return columns.findIndex(c => c.flavor === flavor && c.unit !== 'percent');
}
