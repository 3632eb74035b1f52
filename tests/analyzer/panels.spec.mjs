// The analyzer's per-thread timeline, Event and Leak panels, compare view and data-object tabs
// in real headless Chromium, each compared with er_print -json on the same experiments.
import {test, expect} from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import {record, tempDir, erPrintData, startAnalyzer, tableRows, screenshot} from './fixture.mjs';

let dir;
const servers = [];

test.beforeAll(() => { dir = tempDir(); });
test.afterAll(() => {
  for (const s of servers) s.proc.kill('SIGTERM');
  if (dir) fs.rmSync(dir, {recursive: true, force: true});
});

async function serve(experiments) {
  const s = await startAnalyzer(dir, experiments);
  servers.push(s);
  return s;
}
async function open(page, s, hash = '') {
  await page.goto(s.url + hash);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#left[data-ready="1"]');
}
async function tab(page, id) {
  await page.click(`#tab-${id}`);
  await page.waitForSelector(`#left[data-tab="${id}"][data-ready="1"]`);
}

test('Timeline per thread: events per thread equal thread_list; a clicked event shows its stack', async ({page}) => {
  // threads4: the main thread and four workers; -i on adds I/O events (its output file).
  const exp = record(dir, 'threads.er', 'threads4', [path.join(dir, 'threads4.txt'), '20000000'], ['-i', 'on']);
  const s = await serve([exp]);
  const truth = commands => erPrintData(dir, [exp], commands);
  await open(page, s, '#tab=timeline');
  await page.waitForSelector('#timeline-threads');
  // One row per thread: experiment, thread number, LWP and its events, as thread_list.
  const tl = truth(['thread_list']);
  const want = tl.experiments.flatMap(e => e.threads.map(t => [String(e.experiment), String(t.thread), String(t.lwp), String(t.events)]));
  expect(want.length).toBeGreaterThanOrEqual(5);
  const rows = await tableRows(page, '#timeline-threads');
  expect(rows.map(r => r.slice(0, 4))).toEqual(want);
  // The per-kind columns add up to the events of the thread.
  for (const r of rows) expect(r.slice(4).reduce((a, v) => a + +v, 0)).toBe(+r[3]);
  const data = await page.evaluate(() => window.__threads.data);
  expect(Object.keys(data.threads[0].kinds)).toContain('clock');
  expect(+(await page.getAttribute('#threads-canvas', 'data-drawn'))).toBeGreaterThan(0);

  // Click an event of a worker thread: the Event panel shows its thread and call stack.
  const hit = await page.evaluate(() => {
    // The one with the deepest stack (a sample at the thread's start may hold one frame).
    const t = window.__threads, hs = t.hits.filter(h => h.th.thread === 2 && h.kind === 'clock');
    const h = hs.sort((a, b) => t.data.stacks[b.s].length - t.data.stacks[a.s].length)[0];
    return h && {x: h.x, y: h.y + 4, t: h.t, thread: h.th.thread};
  });
  expect(hit).toBeTruthy();
  await page.click('#threads-canvas', {position: {x: hit.x, y: hit.y}});
  await expect(page.locator('#event-info dd[data-key="thread"]')).toHaveText(String(hit.thread));
  const shownT = await page.evaluate(() => window.__threads.selected.t);
  const stack = await page.$$eval('#event-stack li', lis => lis.map(li => li.textContent));
  expect(stack.length).toBeGreaterThan(0);
  // er_print restricted to that one event (its thread and time stamp): the call tree is one
  // path, root to leaf, the stack the panel shows.
  const ct = truth([`filters THRID == ${hit.thread} && TSTAMP == ${shownT}`, 'calltree']);
  const chain = [];
  for (let n = ct.root; n.children && n.children.length; n = n.children[0]) {
    expect(n.children.length).toBe(1);
    chain.push(n.children[0].name);
  }
  expect(chain).toEqual([...stack].reverse());
  // The right pane's Legend: the microstates, and the leaf functions of the events shown.
  await expect(page.locator('#legend-panel')).toBeVisible();
  expect(await page.$$eval('#legend-functions li', lis => lis.length)).toBeGreaterThan(0);
  // The event's leaf function is the selection.
  await expect(page.locator('#summary-name')).toHaveText(stack[0]);
  await screenshot(page, 'timeline-threads');

  // Leaf alignment redraws; the wheel zooms in (a narrower view fetched from the server).
  await page.selectOption('#timeline-align', 'leaf');
  const box = await page.locator('#threads-canvas').boundingBox();
  await page.mouse.move(box.x + 110 + (box.width - 120) / 2, box.y + 20);
  await page.mouse.wheel(0, -300);
  await expect(async () => {
    const d = await page.evaluate(() => window.__threads.data);
    expect(d.t1 - d.t0).toBeLessThan(data.end_ns);
  }).toPass({timeout: 10_000});

  // A dragged range on the thread bars is the time filter of every tab.
  await page.click('#threads-reset');
  await page.mouse.move(box.x + 110 + (box.width - 120) * 0.2, box.y + 20);
  await page.mouse.down();
  await page.mouse.move(box.x + 110 + (box.width - 120) * 0.6, box.y + 20, {steps: 5});
  await page.mouse.up();
  await expect(page.locator('#filter-label')).toContainText('TSTAMP >= ');
  const range = await page.evaluate(() => window.__threads.range);
  await tab(page, 'functions');
  const filtered = truth([`filters TSTAMP >= ${range[0]} && TSTAMP < ${range[1]}`, 'functions']);
  await expect(async () => {
    const names = (await tableRows(page, '#functions-table')).map(r => r[r.length - 1]);
    expect(names).toEqual(filtered.rows.map(r => r.name));
  }).toPass({timeout: 15_000});
});

test('Timeline per CPU: one row per CPU of cpu_list; a clicked event is er_print\'s', async ({page}) => {
  const exp = record(dir, 'cpus.er', 'threads4', [path.join(dir, 'threads4-cpu.txt'), '20000000'], ['-i', 'on']);
  const s = await serve([exp]);
  const truth = commands => erPrintData(dir, [exp], commands);
  await open(page, s, '#tab=timeline');
  await page.waitForSelector('#timeline-threads');
  // The data has the CPU of its events: Bars per CPU is offered.
  await expect(page.locator('#timeline-by-label')).toBeVisible();
  const perThread = await page.evaluate(() => window.__threads.data);
  await page.selectOption('#timeline-by', 'cpu');
  await page.waitForSelector('#left[data-by="cpu"]');
  const data = await page.evaluate(() => window.__threads.data);
  expect(data.by).toBe('cpu');
  // One row per CPU, the CPUs of er_print's cpu_list, in its order.
  const cl = truth(['cpu_list']).experiments[0];
  expect(data.threads.map(r => r.cpu)).toEqual(cl.all);
  const rows = await tableRows(page, '#timeline-threads');
  expect(rows.map(r => r[1])).toEqual(cl.all.map(String));
  // The bars hold the events whose CPU was recorded: a sample taken while its thread was off
  // the CPU, and some traced events, have none, so per kind the CPUs' counts add up to at most
  // the threads'; each row's kinds add up to its events.
  const sum = (list, kind) => list.reduce((a, r) => a + (r.kinds[kind] ? r.kinds[kind].count : 0), 0);
  expect(sum(data.threads, 'clock')).toBeGreaterThan(0);
  for (const kind of ['clock', 'io']) expect(sum(data.threads, kind)).toBeLessThanOrEqual(sum(perThread.threads, kind));
  for (const r of data.threads) expect(Object.values(r.kinds).reduce((a, k) => a + k.count, 0)).toBe(r.events);
  expect(sum(perThread.threads, 'clock') + sum(perThread.threads, 'io'))
      .toBe(truth(['thread_list']).experiments[0].threads.reduce((a, t) => a + t.events, 0));
  // A clicked event: its CPU and stack, er_print's call tree of that one event (CPUID, TSTAMP).
  const hit = await page.evaluate(() => {
    const t = window.__threads, hs = t.hits.filter(h => h.kind === 'clock');
    const h = hs.sort((a, b) => t.data.stacks[b.s].length - t.data.stacks[a.s].length)[0];
    return h && {x: h.x, y: h.y + 4, cpu: h.th.cpu};
  });
  expect(hit).toBeTruthy();
  await page.click('#threads-canvas', {position: {x: hit.x, y: hit.y}});
  await expect(page.locator('#event-info dd[data-key="cpu"]')).toHaveText(String(hit.cpu));
  const shownT = await page.evaluate(() => window.__threads.selected.t);
  const stack = await page.$$eval('#event-stack li', lis => lis.map(li => li.textContent));
  const ct = truth([`filters CPUID == ${hit.cpu} && TSTAMP == ${shownT}`, 'calltree']);
  const chain = [];
  for (let n = ct.root; n.children && n.children.length; n = n.children[0]) {
    expect(n.children.length).toBe(1);
    chain.push(n.children[0].name);
  }
  expect(chain).toEqual([...stack].reverse());
  await screenshot(page, 'timeline-cpus');
});

test('Leak panel: the selected leak\'s bytes, count and stack as er_print leaks', async ({page}) => {
  const exp = record(dir, 'leaks.er', 'trace_leaks', [], ['-H', 'on']);
  const s = await serve([exp]);
  const want = erPrintData(dir, [exp], ['leaks']);
  await open(page, s, '#tab=leaks');
  for (const i of [0, want.entries.length - 1]) {
    await page.locator('#leaks-table tbody tr').nth(i).click();
    const e = want.entries[i];
    await expect(page.locator('#leak-info dd[data-key="bytes"]')).toHaveText(String(e.bytes));
    await expect(page.locator('#leak-info dd[data-key="count"]')).toHaveText(String(e.count));
    expect(await page.$$eval('#leak-stack li', lis => lis.map(li => li.textContent))).toEqual(e.stack.map(f => f.text));
  }
  // Keyboard: Up moves the selection, and the panel follows.
  await page.keyboard.press('ArrowUp');
  await expect(page.locator('#leak-info dd[data-key="bytes"]')).toHaveText(String(want.entries[want.entries.length - 2].bytes));
  await screenshot(page, 'leak-panel');
});

test('Compare: two experiments side by side, er_print compare delta and ratio', async ({page}) => {
  const a = record(dir, 'a.er', 'compare_build_1x', ['20000000', path.join(dir, 'a.txt')], ['-p', 'hi']);
  const b = record(dir, 'b.er', 'compare_build_2x', ['20000000', path.join(dir, 'b.txt')], ['-p', 'hi']);
  const s = await serve([a, b]);
  await open(page, s);
  await expect(page.locator('#compare-label')).toBeVisible();
  for (const mode of ['delta', 'ratio']) {
    await page.selectOption('#compare-mode', mode);
    await page.waitForSelector('#compare-table');
    const want = erPrintData(dir, [a, b], [`compare ${mode}`, 'functions']);
    expect(want.sides.length).toBe(2);
    await expect(async () => {
      const shown = await page.$$eval('#compare-table tbody tr', trs => trs.map(tr => ({
        name: tr.querySelector('td.name').textContent,
        raw: [...tr.querySelectorAll('td.num')].map(td => td.dataset.raw)})));
      expect(shown.map(r => r.name)).toEqual(want.rows.map(r => r.name));
      // Per column, per side: the base's value, then the later side's delta or ratio.
      expect(shown.map(r => r.raw)).toEqual(want.rows.map(r => r.values.flatMap(col => col.map((side, k) =>
        String(k === 0 ? side.mean : mode === 'delta' ? side.delta : side.ratio)))));
    }).toPass({timeout: 15_000});
    expect(want.rows.some(r => r.name === 'two')).toBe(true);
  }
  expect(page.url()).toContain('compare=ratio');
  // A row selects its function in every tab: the Summary shows it.
  // (Two functions are named two, one per program: er_print's Summary names the first, with its object.)
  await page.locator('#compare-table tbody tr', {has: page.locator('td.name', {hasText: /^two$/})}).click();
  await expect(page.locator('#summary-name')).toHaveText('two (compare_build_1x)');
  await screenshot(page, 'compare');
  // Off: the ordinary function list again.
  await page.selectOption('#compare-mode', 'off');
  await page.waitForSelector('#functions-table');
});

test('DataObjects, DataLayout, MemoryObjects equal er_print; the tabs only with dataspace data', async ({page}) => {
  const exp = record(dir, 'pf.er', 'ds_first_touch', [], ['-h', '+page-faults,1']);
  const plain = record(dir, 'plain.er', 'work_ratio', ['10000000']);
  const s0 = await serve([plain]);
  await open(page, s0);
  await expect(page.locator('#tab-functions')).toHaveCount(1);
  await expect(page.locator('#tab-dataobjects')).toHaveCount(0);
  const s = await serve([exp]);
  const truth = commands => erPrintData(dir, [exp], commands);
  await open(page, s, '#tab=dataobjects');
  const objs = truth(['data_objects']).objects;
  expect(objs.some(o => o.name === '{array:structure:rec_t g_recs}')).toBe(true);
  const metricsOf = o => Object.values(o.metrics).map(String);
  expect(await tableRows(page, '#dataobjects-table')).toEqual(objs.map(o => [...metricsOf(o), String(o.size), o.kind, o.name]));
  await screenshot(page, 'dataobjects');
  await tab(page, 'datalayout');
  const lay = truth(['data_layout']).aggregates;
  const want = lay.flatMap(a => [[...metricsOf(a), '', String(a.size), a.aggregate],
                                 ...(a.members || []).map(m => [...metricsOf(m), `+${m.offset}`, String(m.size), m.name])]);
  expect(await tableRows(page, '#datalayout-table')).toEqual(want);
  await screenshot(page, 'datalayout');
  await tab(page, 'memobj');
  const types = truth(['mobj_list']).types;
  await page.selectOption('#memobj-type', 'Vpage_4K');
  await page.waitForSelector('#left[data-tab="memobj"][data-ready="1"]');
  await expect(page.locator('#memobj-type')).toHaveValue('Vpage_4K');
  const mo = truth(['memobj Vpage_4K']).objects;
  expect(types.map(t => t.name)).toContain('Vpage_4K');
  expect(await tableRows(page, '#memobj-table')).toEqual(mo.map(o => [...metricsOf(o), o.name]));
  expect(page.url()).toContain('memobj=Vpage_4K');
});
