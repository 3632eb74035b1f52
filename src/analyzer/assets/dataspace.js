// The data-object tabs (docs/analyzer.md, "Data objects"): er_print's data_objects,
// data_layout and memobj reports, shown only when the experiments hold dataspace data
// (hardware-counter or clock profiling with data addresses, docs/dataspace.md).
import * as api from './api.js';
import {escapeHtml} from './format.js';
import {selectableRows} from './rows.js';

// Metric names of a report's rows (each row's `metrics` object), in first-seen order.
function metricNames(rows) {
  const names = [];
  for (const r of rows) for (const k of Object.keys(r.metrics || {})) if (!names.includes(k)) names.push(k);
  return names;
}
function cells(names, m) { return names.map(n => `<td class="num" data-metric="${escapeHtml(n)}">${m && m[n] !== undefined ? m[n] : ''}</td>`).join(''); }

export async function hasDataspace() {
  try { const d = await api.report('data_objects'); return d.available !== false && (d.objects || []).length > 0; } catch { return false; }
}

export async function renderDataObjects(el) {
  const d = await api.report('data_objects');
  const names = metricNames(d.objects);
  let h = `<table class="metrics" id="dataobjects-table" tabindex="0"><thead><tr>${names.map(n => `<th class="num">${escapeHtml(n)}</th>`).join('')}<th>Size</th><th>Kind</th><th class="name">Data object</th></tr></thead><tbody>`;
  for (const o of d.objects) h += `<tr>${cells(names, o.metrics)}<td class="num">${o.size}</td><td>${escapeHtml(o.kind)}</td><td class="name">${escapeHtml(o.name)}</td></tr>`;
  el.innerHTML = h + '</tbody></table>';
  selectableRows(el.querySelector('table'));
}

export async function renderDataLayout(el) {
  const d = await api.report('data_layout');
  const names = metricNames(d.aggregates);
  let h = `<table class="metrics" id="datalayout-table" tabindex="0"><thead><tr>${names.map(n => `<th class="num">${escapeHtml(n)}</th>`).join('')}<th>Offset</th><th>Size</th><th class="name">Aggregate / member</th></tr></thead><tbody>`;
  for (const a of d.aggregates) {
    h += `<tr class="aggregate">${cells(names, a.metrics)}<td></td><td class="num">${a.size}</td><td class="name"><b>${escapeHtml(a.aggregate)}</b></td></tr>`;
    for (const m of a.members || [])
      h += `<tr class="member">${cells(names, m.metrics)}<td class="num">+${m.offset}</td><td class="num">${m.size}</td><td class="name" style="padding-left:18px">${escapeHtml(m.name)}</td></tr>`;
  }
  el.innerHTML = h + '</tbody></table>';
  selectableRows(el.querySelector('table'));
}

export async function renderMemObjects(el, type, onType) {
  const types = (await api.report('mobj_list')).types || [];
  const names = types.map(t => t.name || t);
  if (!type || !names.includes(type)) type = names[0];
  const d = await api.report(`memobj ${type}`);
  const rows = d.objects || [];
  const ms = metricNames(rows);
  let h = `<label>Memory object type: <select id="memobj-type">${names.map(n => `<option${n === type ? ' selected' : ''}>${escapeHtml(n)}</option>`).join('')}</select></label>`;
  if (d.available === false) h += `<p class="hint">${escapeHtml(d.reason)}</p>`;
  h += `<table class="metrics" id="memobj-table" tabindex="0"><thead><tr>${ms.map(n => `<th class="num">${escapeHtml(n)}</th>`).join('')}<th class="name">${escapeHtml(type)}</th></tr></thead><tbody>`;
  for (const o of rows) h += `<tr>${cells(ms, o.metrics)}<td class="name">${escapeHtml(o.name)}</td></tr>`;
  el.innerHTML = h + '</tbody></table>';
  el.querySelector('#memobj-type').onchange = e => onType(e.target.value);
  selectableRows(el.querySelector('#memobj-table'));
}
