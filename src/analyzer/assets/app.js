// The Performance Analyzer page: tabs over er_print's JSON reports, one shared selection
// (a function id), one filter (expression and time range), all encoded in the URL's hash.
import * as api from './api.js';
import {renderTable} from './table.js';
import {selectableRows} from './rows.js';
import {renderListing} from './listing.js';
import {FlameGraph, fromCalltree, invert} from './flame.js';
import {Timeline, colorOfState} from './timeline.js';
import {escapeHtml, formatValue, columnTitle} from './format.js';
import {ThreadTimeline, threadTable, eventPanel, colorOfFunction} from './threads.js';
import {renderCompare} from './compare.js';
import {hasDataspace, renderDataObjects, renderDataLayout, renderMemObjects} from './dataspace.js';
import {setupCollect, fill as fillCollect} from './collect.js';
import {notesHtml, wireNotes} from './notes.js';
import {setupMapfile} from './mapfile.js';

const state = {tab: 'functions', fn: null, filter: '', range: null, inverted: false, compare: 'off', memobj: ''};
const $ = id => document.getElementById(id);
const left = () => $('left');

// ---- URL (deep links): #tab=...&fn=...&filter=...&range=a,b&inverted=1
function readHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (p.get('tab')) state.tab = p.get('tab');
  if (p.get('fn') !== null && p.get('fn') !== '') state.fn = +p.get('fn');
  state.filter = p.get('filter') || '';
  const r = p.get('range');
  state.range = r ? r.split(',').map(Number) : null;
  state.inverted = p.get('inverted') === '1';
  state.compare = p.get('compare') || 'off';
  state.memobj = p.get('memobj') || '';
}
function writeHash() {
  const p = new URLSearchParams();
  p.set('tab', state.tab);
  if (state.fn !== null) p.set('fn', state.fn);
  if (state.filter) p.set('filter', state.filter);
  if (state.range) p.set('range', state.range.join(','));
  if (state.inverted) p.set('inverted', '1');
  if (state.compare !== 'off') p.set('compare', state.compare);
  if (state.memobj) p.set('memobj', state.memobj);
  history.replaceState(null, '', location.pathname + location.search.replace(/([?&])token=[^&]*&?/, '$1').replace(/[?&]$/, '') + '#' + p);
}

function status(text, error) {
  const s = $('status');
  s.textContent = text;
  s.className = error ? 'error' : '';
}

// ---- filter: the expression and the time range, combined into one `filters` command
function filterExpression() {
  const parts = [];
  if (state.filter) parts.push(`(${state.filter})`);
  if (state.range) parts.push(`TSTAMP >= ${state.range[0]} && TSTAMP < ${state.range[1]}`);
  return parts.join(' && ');
}
// unchanged: only when the session's filter differs (setting it again recomputes reports).
async function applyFilter(onlyIfChanged = false) {
  const e = filterExpression();
  if (!onlyIfChanged || (await api.report('filters')).current !== (e || '1'))
    await api.report(e ? `filters ${e}` : 'filters 1');
  $('filter-label').textContent = e ? `Filter: ${e}` : '';
  $('btn-clear-filter').hidden = !e;
}

// ---- selection, shared by every tab
async function select(id, {render = false} = {}) {
  if (id === undefined || id === null) return;
  state.fn = id;
  writeHash();
  await showSummary();
  if (render) await show(state.tab);
}
async function showSummary() {
  const el = $('summary');
  if (state.fn === null) { el.textContent = 'Select a function.'; return; }
  try {
    const d = await api.forFunction('fsingle', state.fn);
    const f = d.functions[0];
    let h = `<h3 id="summary-name">${escapeHtml(f.name)}</h3><table class="summary">`;
    for (const m of f.metrics)
      h += `<tr><th>${escapeHtml(m.title)}</th><td data-flavor="exclusive" data-metric="${escapeHtml(m.metric)}">${formatValue({unit: m.unit}, m.exclusive)}</td><td>${m.exclusive_percent.toFixed(2)}%</td>` +
           `<td data-flavor="inclusive" data-metric="${escapeHtml(m.metric)}">${formatValue({unit: m.unit}, m.inclusive)}</td><td>${m.inclusive_percent.toFixed(2)}%</td></tr>`;
    h += '</table><dl>';
    const info = [['Address', typeof f.address === 'number' ? '0x' + f.address.toString(16) : f.address], ['Size', f.size], ['Source File', f.source_file], ['Object File', f.object_file],
                  ['Load Object', f.load_object], ['Mangled Name', f.mangled_name], ['Aliases', (f.aliases || []).join(', ')]];
    for (const [k, v] of info) if (v !== undefined && v !== '') h += `<dt>${k}</dt><dd>${escapeHtml(v)}</dd>`;
    el.innerHTML = h + '</dl>';
  } catch (e) { el.textContent = e.message; }
}

// ---- context menu of a function
function contextMenu(row, ev) {
  const m = $('context-menu');
  const items = [
    ['Show Callers-Callees', () => go('callers', row.id)],
    ['Show Source', () => go('source', row.id)],
    ['Show Disassembly', () => go('disasm', row.id)],
    ['Focus on this function (filter)', async () => { state.filter = `(${row.id} SOME IN STACK)`; await applyFilter(); writeHash(); show(state.tab); }],
    ['Filter: leaf is this function', async () => { state.filter = `LEAF == ${row.id}`; await applyFilter(); writeHash(); show(state.tab); }],
    ['Hide this load object (one line for its functions)', () => setObject(row.id, 'object_hide')],
    ['Show all load objects', async () => { await api.report('object_show all'); show(state.tab); }],
  ];
  m.innerHTML = items.map(([t], i) => `<li role="menuitem" tabindex="-1" data-i="${i}">${t}</li>`).join('');
  m.style.left = ev.pageX + 'px';
  m.style.top = ev.pageY + 'px';
  m.hidden = false;
  m.onclick = e => { const li = e.target.closest('li'); m.hidden = true; if (li) items[+li.dataset.i][1](); };
  m.querySelector('li').focus();
  m.onkeydown = e => {
    const lis = [...m.querySelectorAll('li')], i = lis.indexOf(document.activeElement);
    if (e.key === 'ArrowDown') lis[(i + 1) % lis.length].focus();
    else if (e.key === 'ArrowUp') lis[(i - 1 + lis.length) % lis.length].focus();
    else if (e.key === 'Enter' && i >= 0) { m.hidden = true; items[i][1](); }
    else if (e.key === 'Escape') m.hidden = true;
    e.preventDefault();
  };
}
document.addEventListener('click', ev => { if (!ev.target.closest('#context-menu')) $('context-menu').hidden = true; });

// object_hide/object_show of the load object of function `id` (er_print's object name).
async function setObject(id, cmd) {
  try {
    const f = (await api.forFunction('fsingle', id)).functions[0];
    const objs = (await api.report('object_list')).objects;
    const o = objs.find(x => x.path === f.load_object) || objs.find(x => x.name === f.load_object);
    if (!o) throw new Error(`no load object ${f.load_object}`);
    await api.report(`${cmd} ${o.name}`);
    show(state.tab);
  } catch (e) { status(e.message, true); }
}

function go(tab, id) { state.fn = id; state.tab = tab; writeHash(); show(tab); showSummary(); }
const rowOpts = () => ({selectedId: state.fn ?? undefined, onSelect: r => select(r.id), onActivate: r => go('callers', r.id), onContext: contextMenu});

// er_print's calltree, its first kTreeNodes nodes in depth-first order (er_print's `limit`
// applies to the tree as to its text form); the session's own limit is restored after.
const kTreeNodes = 20000;
async function calltreeReport() {
  const r = await fetch(`/api/calltree?nodes=${kTreeNodes}`, {credentials: 'same-origin'});
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  if (j[0].error) throw new Error(j[0].error);
  return j[0].data;
}
function treeNote(el, tree) {
  let n = 0;
  const count = x => { ++n; (x.children || []).forEach(count); };
  count(tree.root);
  if (n >= kTreeNodes) {
    const p = document.createElement('p');
    p.className = 'hint';
    p.id = 'tree-truncated';
    p.textContent = `The tree has more than ${kTreeNodes} nodes: the first ${kTreeNodes} in depth-first order (hottest first) are shown.`;
    el.appendChild(p);
  }
}

// ---- tabs
const tabs = [
  {id: 'functions', label: 'Functions', async render(el) {
    const d = await api.report('functions');
    if (d.sides) {  // compare on|delta|ratio: er_print's compare list; a row selects its function by name
      renderCompare(el, d, {onSelect: async r => {
        const j = await (await fetch(`/api/fnid?name=${encodeURIComponent(r.name)}`, {credentials: 'same-origin'})).json();
        if (j.ids && j.ids.length) select(j.ids[0]);
      }});
      return;
    }
    renderTable(el, d.columns, d.rows, rowOpts()).id = 'functions-table';
  }},
  {id: 'callers', label: 'Callers-Callees', async render(el) {
    if (state.fn === null) { el.textContent = 'Select a function in the Functions tab.'; return; }
    const d = await api.forFunction('csingle', state.fn);
    const p = d.panels[0];
    const section = (title, rows, id) => {
      const h = document.createElement('h3'); h.textContent = title; el.appendChild(h);
      renderTable(el, d.columns, rows, {...rowOpts(), onActivate: r => select(r.id, {render: true})}).id = id;
    };
    section('Callers', p.callers, 'callers-table');
    section('Selected function', [p.function], 'function-table');
    section('Callees', p.callees, 'callees-table');
  }},
  {id: 'calltree', label: 'Call Tree', async render(el) {
    const d = await calltreeReport();
    treeNote(el, d);
    renderTree(el, d);
  }},
  {id: 'flame', label: 'Flame Graph', async render(el) {
    const d = await calltreeReport();
    treeNote(el, d);
    const bar = document.createElement('div');
    bar.innerHTML = `<label><input type="checkbox" id="flame-inverted"${state.inverted ? ' checked' : ''}> Inverted (callers above leaf functions)</label>
      <label>Search: <input id="flame-search" placeholder="regular expression"></label> <button id="flame-reset">Reset zoom</button>`;
    el.appendChild(bar);
    const canvas = document.createElement('canvas');
    canvas.id = 'flame-canvas';
    canvas.className = 'graph';
    el.appendChild(canvas);
    const tree = fromCalltree(d);
    const g = new FlameGraph(canvas, {onSelect: n => { if (n.id !== undefined && n.name !== '<Total>') select(n.id); }});
    g.set(state.inverted ? invert(tree) : tree);
    window.__flame = g;
    $('flame-inverted').onchange = e => { state.inverted = e.target.checked; writeHash(); g.set(state.inverted ? invert(tree) : tree); };
    $('flame-search').oninput = e => g.setSearch(e.target.value);
    $('flame-reset').onclick = () => { g.zoom = g.root; g.draw(); };
  }},
  {id: 'source', label: 'Source', async render(el) {
    if (state.fn === null) { el.textContent = 'Select a function.'; return; }
    renderListing(el, await api.forFunction('source', state.fn)).id = 'source-table';
  }},
  {id: 'lines', label: 'Lines', async render(el) {
    const d = await api.report('lines');
    renderTable(el, d.columns, d.rows, {}).id = 'lines-table';
  }},
  {id: 'disasm', label: 'Disassembly', async render(el) {
    if (state.fn === null) { el.textContent = 'Select a function.'; return; }
    renderListing(el, await api.forFunction('disasm', state.fn)).id = 'disasm-table';
  }},
  {id: 'pcs', label: 'PCs', async render(el) {
    const d = await api.report('pcs');
    renderTable(el, d.columns, d.rows, {}).id = 'pcs-table';
  }},
  {id: 'timeline', label: 'Timeline', async render(el) {
    const d = await api.report('overview');
    const bar = document.createElement('div');
    bar.innerHTML = '<button id="timeline-reset">Reset zoom</button> <button id="timeline-clear">Clear time range</button> <span class="hint">drag: time range filter; wheel: zoom; shift-drag: pan</span>';
    el.appendChild(bar);
    const canvas = document.createElement('canvas');
    canvas.id = 'timeline-canvas';
    canvas.className = 'graph';
    el.appendChild(canvas);
    const legend = $('legend');  // the right pane's Legend
    const t = new Timeline(canvas, {
      onRange: async r => { state.range = r; writeHash(); await applyFilter(); status(`time range ${(r[0] / 1e9).toFixed(3)}s - ${(r[1] / 1e9).toFixed(3)}s: every tab shows it`); },
      onLegend: states => { legend.innerHTML = states.map(s => `<span class="swatch" style="background:${colorOfState(s)}"></span>${escapeHtml(s)}`).join(' '); }});
    t.set(d, state.range);
    window.__timeline = t;
    $('timeline-reset').onclick = () => t.resetZoom();
    $('timeline-clear').onclick = async () => { state.range = null; t.range = null; t.draw(); tt.range = null; tt.draw(); writeHash(); await applyFilter(); };
    // Per thread: one bar per data kind, each event as its call stack (threads.js).
    const ctl = document.createElement('div');
    ctl.className = 'timeline-controls';
    ctl.innerHTML = `<b>Threads</b> <label id="timeline-by-label" hidden>Bars per: <select id="timeline-by"><option value="thread">thread</option><option value="cpu">CPU</option></select></label> <label>Align: <select id="timeline-align"><option value="root">root</option><option value="leaf">leaf</option></select></label>
      <label>Depth: <input id="timeline-depth" type="number" min="1" max="36" value="12" size="3"></label> <button id="threads-reset">Reset zoom</button>`;
    el.appendChild(ctl);
    const tcanvas = document.createElement('canvas');
    tcanvas.id = 'threads-canvas';
    tcanvas.className = 'graph';
    el.appendChild(tcanvas);
    let by = 'thread';  // per thread, or per CPU when the data has the CPU (Bars per)
    el.dataset.by = by;
    const fetchEvents = async (t0, t1, buckets) => {
      const r = await fetch(`/api/events?t0=${t0}&t1=${t1}&buckets=${buckets}&by=${by}`, {credentials: 'same-origin'});
      const j = await r.json();
      if (!r.ok) throw new Error(j.error || r.statusText);
      return j;
    };
    const tt = new ThreadTimeline(tcanvas, {
      fetchEvents,
      onRange: async r => { state.range = r; t.range = r; t.draw(); writeHash(); await applyFilter(); status(`time range ${(r[0] / 1e9).toFixed(3)}s - ${(r[1] / 1e9).toFixed(3)}s: every tab shows it`); },
      onEvent: e => showEvent(e), onData: d => legendFunctions(d)});
    const width = Math.max(1, Math.round(tt.width()));
    const data = await fetchEvents(0, 0, width);
    tt.set(data, state.range);
    el.insertAdjacentHTML('beforeend', threadTable(data));
    window.__threads = tt;
    $('timeline-by-label').hidden = !data.has_cpu;
    $('timeline-by').onchange = async e => {
      by = e.target.value;
      tt.selected = null;
      const d2 = await fetchEvents(Math.max(0, Math.floor(tt.view[0])), Math.ceil(tt.view[1]), Math.max(1, Math.round(tt.width())));
      tt.set(d2, tt.range);
      $('timeline-threads').outerHTML = threadTable(d2);
      el.dataset.by = by;
    };
    $('timeline-align').onchange = e => { tt.align = e.target.value; tt.draw(); };
    $('timeline-depth').onchange = e => { tt.depth = Math.max(1, +e.target.value || 12); tt.draw(); };
    $('threads-reset').onclick = () => tt.resetZoom();
  }},
  {id: 'leaks', label: 'LeakList', applies: async () => { try { const d = await api.report('leaks'); return d.entries && d.entries.length > 0; } catch { return false; } },
   async render(el) {
    const d = await api.report('leaks');
    const maxB = Math.max(1, ...d.entries.map(e => e.bytes)), maxC = Math.max(1, ...d.entries.map(e => e.count));
    let h = `<p>${d.summary.instances} leaks, ${d.summary.bytes} bytes, ${d.summary.distinct} distinct stacks</p><table class="metrics" id="leaks-table" tabindex="0"><thead><tr><th>#</th><th>Bytes</th><th></th><th>Count</th><th></th><th>Stack (leaf first)</th></tr></thead><tbody>`;
    for (const e of d.entries)
      h += `<tr><td>${e.rank}</td><td class="num">${e.bytes}</td><td><span class="bar" style="width:${100 * e.bytes / maxB}px"></span></td><td class="num">${e.count}</td><td><span class="bar count" style="width:${100 * e.count / maxC}px"></span></td><td class="stack">${e.stack.map(f => escapeHtml(f.text)).join('<br>')}</td></tr>`;
    el.innerHTML = h + '</tbody></table>';
    const table = $('leaks-table');
    selectableRows(table, {onSelect: i => showLeak(d.entries[i], d.summary)});
  }},
  {id: 'dataobjects', label: 'DataObjects', applies: hasDataspace, render: renderDataObjects},
  {id: 'datalayout', label: 'DataLayout', applies: hasDataspace, render: renderDataLayout},
  {id: 'memobj', label: 'MemoryObjects', applies: hasDataspace,
   render: el => renderMemObjects(el, state.memobj, type => { state.memobj = type; writeHash(); show('memobj'); })},
  {id: 'statistics', label: 'Statistics', async render(el) {
    const d = await api.report('statistics');
    let h = '<table class="metrics" id="statistics-table" tabindex="0"><tbody>';
    for (const [k, v] of Object.entries(d.total)) h += `<tr><th>${escapeHtml(k)}</th><td class="num" data-key="${escapeHtml(k)}">${escapeHtml(v)}</td></tr>`;
    el.innerHTML = h + '</tbody></table>';
  }},
  {id: 'experiments', label: 'Experiments', async render(el) {
    const d = await api.report('header');
    const objs = await api.report('objects');
    let h = '';
    for (const e of d.experiments) {
      h += `<section class="experiment" data-id="${e.id}"><h3>Experiment ${e.id}: ${escapeHtml(e.path)}</h3><dl>`;
      for (const k of ['target', 'pid', 'host', 'arch', 'os', 'ncpus', 'collector_version', 'duration_ns'])
        if (e[k] !== undefined) h += `<dt>${k}</dt><dd data-key="${k}">${escapeHtml(Array.isArray(e[k]) ? e[k].join(' ') : e[k])}</dd>`;
      if (e.end) h += `<dt>end</dt><dd>${escapeHtml(e.end.description || e.end.how)}</dd>`;
      h += '</dl>';
      h += notesHtml(e);
      if ((e.errors || []).length) h += '<h4>Errors</h4><ul>' + e.errors.map(x => `<li class="error">${escapeHtml(x.file)}: ${escapeHtml(x.message)}</li>`).join('') + '</ul>';
      if ((e.warnings || []).length) h += '<h4>Warnings</h4><ul>' + e.warnings.map(x => `<li>${escapeHtml(x.text)}</li>`).join('') + '</ul>';
      h += '</section>';
    }
    h += '<h3>Load Objects</h3><table class="metrics" id="objects-table" tabindex="0"><thead><tr><th>#</th><th>Name</th><th>Path</th><th>Build ID</th></tr></thead><tbody>';
    for (const o of objs.objects) h += `<tr><td>${o.index}</td><td>${escapeHtml(o.name)}</td><td>${escapeHtml(o.path)}</td><td>${escapeHtml(o.build_id || '')}</td></tr>`;
    el.innerHTML = h + '</tbody></table>';
    wireNotes(el);
  }},
];

// The Legend's function colours: the leaf functions of the events shown, most frequent first.
function legendFunctions(d) {
  const n = new Map();
  for (const th of d.threads) for (const k of Object.values(th.kinds)) for (const [, s] of k.shown) {
    const leaf = d.stacks[s][0];
    n.set(leaf, (n.get(leaf) || 0) + 1);
  }
  const top = [...n].sort((a, b) => b[1] - a[1]).slice(0, 15);
  $('legend-functions').innerHTML = top.map(([id, c]) => `<li data-id="${id}"><span class="swatch" style="background:${colorOfFunction(id)}"></span>${escapeHtml(d.functions[id])} (${c})</li>`).join('');
  $('legend-functions').querySelectorAll('li').forEach(li => li.addEventListener('click', () => select(+li.dataset.id)));
}

// ---- right pane: Event (a timeline event) and Leak (a LeakList entry) panels
function showEvent(e) {
  const el = $('event-panel');
  el.innerHTML = eventPanel(e, t => `${(t / 1e9).toFixed(6)} s`);
  el.hidden = false;
  // Its leaf function becomes the selection of every tab.
  el.querySelectorAll('#event-stack li').forEach(li => li.addEventListener('click', () => select(+li.dataset.id)));
  if (e.frames.length) select(e.frames[0].id);
}
function showLeak(entry, summary) {
  const el = $('leak-panel');
  let h = `<h3>Leak</h3><dl id="leak-info"><dt>Rank</dt><dd>${entry.rank}</dd><dt>Bytes</dt><dd data-key="bytes">${entry.bytes}</dd>` +
          `<dt>Count</dt><dd data-key="count">${entry.count}</dd><dt>% of leaked bytes</dt><dd>${(100 * entry.bytes / Math.max(1, summary.bytes)).toFixed(2)}</dd></dl>`;
  h += '<h4>Allocation stack (leaf first)</h4><ol id="leak-stack" class="stack">' + entry.stack.map(f => `<li>${escapeHtml(f.text)}</li>`).join('') + '</ol>';
  el.innerHTML = h;
  el.hidden = false;
}

// Call tree: nested rows, expanded on demand (Right/Left/Enter on the keyboard).
function renderTree(el, d) {
  const cols = d.columns;
  const table = document.createElement('table');
  table.className = 'metrics tree';
  table.id = 'calltree-table';
  table.tabIndex = 0;
  table.innerHTML = `<thead><tr>${cols.map(c => `<th class="num">${escapeHtml(columnTitle(c))}</th>`).join('')}<th class="name">Name</th></tr></thead><tbody></tbody>`;
  el.appendChild(table);
  const tbody = table.tBodies[0];
  const rowOf = new Map();
  const add = (node, depth, after) => {
    const tr = document.createElement('tr');
    const kids = node.children || [];
    tr.dataset.id = node.id;
    tr.dataset.depth = depth;
    tr.innerHTML = cols.map((c, k) => `<td class="num">${formatValue(c, node.values[k])}</td>`).join('') +
      `<td class="name" style="padding-left:${depth * 14 + 4}px"><span class="twisty">${kids.length ? '▸' : ' '}</span>${escapeHtml(node.name)}</td>`;
    rowOf.set(tr, {node, depth, open: false});
    if (after) after.after(tr); else tbody.appendChild(tr);
    return tr;
  };
  const expand = tr => {
    const r = rowOf.get(tr);
    if (r.open || !(r.node.children || []).length) return;
    r.open = true;
    tr.querySelector('.twisty').textContent = '▾';
    let at = tr;
    for (const k of r.node.children) at = add(k, r.depth + 1, at);
  };
  const collapse = tr => {
    const r = rowOf.get(tr);
    if (!r.open) return;
    r.open = false;
    tr.querySelector('.twisty').textContent = '▸';
    while (tr.nextSibling && +tr.nextSibling.dataset.depth > r.depth) tr.nextSibling.remove();
  };
  let cur = null;
  const pick = tr => {
    if (!tr) return;
    if (cur) cur.classList.remove('selected');
    cur = tr; tr.classList.add('selected'); tr.scrollIntoView({block: 'nearest'});
    const n = rowOf.get(tr).node;
    if (n.name !== '<Total>') select(n.id);
  };
  // The root open, and the hottest path open three levels down.
  let tr = add(d.root, 0, null);
  for (let i = 0; i < 4 && tr; ++i) { expand(tr); tr = tr.nextSibling; }
  table.addEventListener('click', ev => {
    const t = ev.target.closest('tr[data-depth]');
    if (!t) return;
    if (ev.target.classList.contains('twisty')) (rowOf.get(t).open ? collapse : expand)(t);
    pick(t);
  });
  table.addEventListener('keydown', ev => {
    if (!cur) { pick(tbody.rows[0]); return; }
    if (ev.key === 'ArrowDown') pick(cur.nextSibling);
    else if (ev.key === 'ArrowUp') pick(cur.previousSibling);
    else if (ev.key === 'ArrowRight') expand(cur);
    else if (ev.key === 'ArrowLeft') collapse(cur);
    else return;
    ev.preventDefault();
  });
}

let shown = [];
async function show(tab) {
  if (!shown.find(t => t.id === tab)) tab = 'functions';
  state.tab = tab;
  writeHash();
  for (const b of $('tabs').children) b.setAttribute('aria-selected', String(b.dataset.tab === tab));
  const el = left();
  el.innerHTML = '';
  el.dataset.tab = tab;
  el.dataset.ready = '0';
  $('legend-panel').hidden = tab !== 'timeline';
  const t0 = performance.now();
  try {
    await shown.find(t => t.id === tab).render(el);
    status(`${tab}: ${(performance.now() - t0).toFixed(0)} ms`);
  } catch (e) {
    el.innerHTML = `<p class="error">${escapeHtml(e.message)}</p>`;
    status(e.message, true);
  }
  el.dataset.ready = '1';
}

// ---- dialogs
function setupDialogs() {
  $('btn-filter').onclick = () => { $('filter-expr').value = state.filter; $('filter-error').textContent = ''; $('dlg-filter').showModal(); };
  $('filter-construct').onclick = () => { if (state.fn !== null) $('filter-expr').value = `(${state.fn} SOME IN STACK)`; };
  $('filter-apply').onclick = async ev => {
    ev.preventDefault();
    const old = state.filter;
    state.filter = $('filter-expr').value.trim();
    try { await applyFilter(); } catch (e) { state.filter = old; $('filter-error').textContent = e.message; return; }
    $('dlg-filter').close();
    writeHash();
    show(state.tab);
  };
  $('btn-clear-filter').onclick = async () => { state.filter = ''; state.range = null; await applyFilter(); writeHash(); show(state.tab); };
  $('btn-find').onclick = () => $('dlg-find').showModal();
  $('find-next').onclick = ev => {
    ev.preventDefault();
    let re;
    try { re = new RegExp($('find-text').value, 'i'); } catch { return; }
    const rows = [...left().querySelectorAll('tbody tr')];
    const start = rows.findIndex(r => r.classList.contains('selected'));
    for (let k = 1; k <= rows.length; ++k) {
      const tr = rows[(start + k) % rows.length];
      if (re.test(tr.textContent)) { tr.click(); tr.scrollIntoView({block: 'center'}); break; }
    }
  };
  document.addEventListener('keydown', ev => {
    if (ev.ctrlKey && ev.key === 'f') { ev.preventDefault(); $('dlg-find').showModal(); }
  });
  $('btn-present').onclick = openPresentation;
  $('present-apply').onclick = ev => { ev.preventDefault(); applyPresentation(false); };
  $('present-save').onclick = ev => { ev.preventDefault(); applyPresentation(true); };
}

async function openPresentation() {
  const ml = await api.report('metric_list');
  const cur = await api.report('metrics');
  const visible = new Map();
  for (const c of cur.columns) visible.set(`${c.flavor}.${c.metric}`, c.visibility);
  const byMetric = new Map();
  for (const a of ml.available) if (a.flavor === 'e' || a.flavor === 'i') byMetric.set(a.metric, a.title);
  const tb = $('present-metrics').tBodies[0];
  tb.innerHTML = '';
  for (const [m, title] of byMetric) {
    const e = visible.get(`e.${m}`), i = visible.get(`i.${m}`), vis = e || i || [];
    tb.insertAdjacentHTML('beforeend', `<tr data-metric="${escapeHtml(m)}"><td>${escapeHtml(title)}</td>
      <td><input type="checkbox" class="fl-e"${e ? ' checked' : ''}></td><td><input type="checkbox" class="fl-i"${i ? ' checked' : ''}></td>
      <td><input type="checkbox" class="v-time"${vis.includes('time') ? ' checked' : ''}></td><td><input type="checkbox" class="v-value"${vis.includes('value') ? ' checked' : ''}></td>
      <td><input type="checkbox" class="v-percent"${vis.includes('percent') ? ' checked' : ''}></td></tr>`);
  }
  $('present-sort').innerHTML = [...byMetric].flatMap(([m, t]) => [`<option value="e.${m}">Exclusive ${escapeHtml(t)}</option>`, `<option value="i.${m}">Inclusive ${escapeHtml(t)}</option>`]).join('');
  const s = await api.report('sort');
  $('present-sort').value = s.current.replace(/^-/, '');
  $('present-error').textContent = '';
  $('dlg-present').showModal();
}

async function applyPresentation(save) {
  const parts = [];
  for (const tr of $('present-metrics').tBodies[0].rows) {
    let v = '';
    if (tr.querySelector('.v-time').checked) v += '.';
    if (tr.querySelector('.v-value').checked) v += '+';
    if (tr.querySelector('.v-percent').checked) v += '%';
    if (!v) continue;
    let fl = '';
    if (tr.querySelector('.fl-e').checked) fl += 'e';
    if (tr.querySelector('.fl-i').checked) fl += 'i';
    if (!fl) continue;
    parts.push(`${fl}${v}${tr.dataset.metric}`);  // e.g. ie.%user (docs/er_print.md)
  }
  const cmds = [`metrics ${parts.join(':') || 'e.user'}`, `sort ${$('present-sort').value}`,
                `name ${$('present-name').value}`, `viewmode ${$('present-viewmode').value}`];
  try {
    if (save) {
      const r = await fetch('/api/save-rc', {method: 'POST', credentials: 'same-origin', headers: {'Content-Type': 'application/json'},
                                            body: JSON.stringify({commands: cmds})});
      const j = await r.json();
      if (!r.ok) throw new Error(j.error);
      status(`saved ${j.path}`);
    }
    for (const c of cmds) await api.report(c);
  } catch (e) { $('present-error').textContent = e.message; return; }
  $('dlg-present').close();
  show(state.tab);
}

// ---- start
async function start() {
  readHash();
  const inf = await api.info();
  $('experiments-label').textContent = inf.experiments ? inf.experiments.join(' ') : '';
  setupCollect(async () => { location.hash = ''; location.reload(); });
  const ci = await (await fetch('/api/collect/initial', {credentials: 'same-origin'})).json();
  fillCollect(ci.request);
  if (!ci.experiments) {
    // `analyzer [collect options] target args`: nothing to show until the run ends.
    $('left').innerHTML = '<p>No experiment loaded: record one with <b>Collect…</b>.</p>';
    $('left').dataset.ready = '1';
    document.body.dataset.ready = '1';
    $('btn-collect').click();
    return;
  }
  // The first screen is the function list alone: the tabs that apply whatever the data come
  // now; whether LeakList, the data tabs and Compare apply (each a report over every event) is
  // asked after it shows (docs/performance.md, section 10). A deep link's tab or compare mode
  // is settled first.
  const wantsCompare = inf.experiments.length >= 2 || state.compare !== 'off';
  if (wantsCompare) await setupCompare();
  shown = [];
  const current = tabs.find(t => t.id === state.tab);
  for (const t of tabs) if (!t.applies || (t === current && await t.applies())) shown.push(t);
  renderTabs();
  $('tabs').onclick = ev => { const b = ev.target.closest('button'); if (b) show(b.dataset.tab); };
  $('tabs').onkeydown = ev => {
    const i = shown.findIndex(t => t.id === state.tab);
    if (ev.key === 'ArrowRight') show(shown[(i + 1) % shown.length].id);
    else if (ev.key === 'ArrowLeft') show(shown[(i - 1 + shown.length) % shown.length].id);
  };
  setupDialogs();
  setupMapfile();
  await applyFilter(true);
  await showSummary();
  await show(state.tab);
  // The rest, in the order of the full tab list.
  const more = [];
  for (const t of tabs) if (t.applies && !shown.includes(t) && await t.applies()) more.push(t);
  if (more.length) {
    shown = tabs.filter(t => shown.includes(t) || more.includes(t));
    renderTabs();
  }
  if (!wantsCompare && (await api.report('experiment_list')).experiments.length >= 2) await setupCompare();
  document.body.dataset.ready = '1';
}
function renderTabs() {
  $('tabs').innerHTML = shown.map(t => `<button role="tab" data-tab="${t.id}" id="tab-${t.id}" aria-selected="${t.id === state.tab}">${t.label}</button>`).join('');
}
// Two or more experiments or groups: er_print's compare mode.
async function setupCompare() {
  $('compare-label').hidden = false;
  $('compare-mode').value = state.compare;
  if (state.compare !== 'off') await api.report(`compare ${state.compare}`);
  $('compare-mode').onchange = async e => { state.compare = e.target.value; await api.report(`compare ${state.compare}`); writeHash(); show(state.tab); };
}
start().catch(e => status(e.message, true));
