// The analyzer in real headless Chromium: every tab shows what er_print -json reports for the
// same experiment; selection, filters, time range and Set Data Presentation → Save work; the
// server refuses requests without the token or for another Host/Origin, and serves no files.
import {test, expect} from '@playwright/test';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {record, tempDir, erPrintData, startAnalyzer, expectedRows, tableRows, screenshot, cell} from './fixture.mjs';

let dir, exp, leaks, server;

test.beforeAll(async () => {
  dir = tempDir();
  // work_ratio: two() runs twice the loop of one(); trace_leaks: exactly 37 + 5 leaks.
  exp = record(dir, 'test.1.er', 'work_ratio', ['60000000']);
  leaks = record(dir, 'test.2.er', 'trace_leaks', [], ['-H', 'on']);
  server = await startAnalyzer(dir, [exp]);
});

test.afterAll(async () => {
  if (server) server.proc.kill('SIGTERM');
  if (dir) fs.rmSync(dir, {recursive: true, force: true});
});

const truth = commands => erPrintData(dir, [exp], commands);

async function open(page, hash = '') {
  await page.goto(server.url + hash);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#left[data-ready="1"]');
}
async function tab(page, id) {
  await page.click(`#tab-${id}`);
  await page.waitForSelector(`#left[data-tab="${id}"][data-ready="1"]`);
}
async function selectFunction(page, name) {
  await tab(page, 'functions');
  await page.locator('#functions-table tbody tr', {has: page.locator('td.name', {hasText: new RegExp(`^${name}$`)})}).click();
  await expect(page.locator('#summary-name')).toHaveText(name);
}
// The page re-renders after each action; compare once it has (or fail after the timeout).
async function expectTable(page, selector, want) {
  await expect(async () => expect(await tableRows(page, selector)).toEqual(want)).toPass({timeout: 15_000});
}
function fid(name) { return truth(['functions']).rows.find(r => r.name === name).id; }

test('Functions tab equals er_print -functions', async ({page}) => {
  await open(page);
  const want = expectedRows(truth(['functions']));
  await expectTable(page, '#functions-table', want);
  expect(want.map(r => r[r.length - 1])).toEqual(expect.arrayContaining(['<Total>', 'one', 'two']));
  await screenshot(page, 'functions');
});

test('selection is shared: Summary, Callers-Callees, Source, Disassembly follow it', async ({page}) => {
  await open(page);
  await selectFunction(page, 'two');
  // Summary: er_print fsingle's metrics.
  const f = truth(['fsingle two']).functions[0];
  for (const m of f.metrics) {
    await expect(page.locator(`#summary td[data-flavor="exclusive"][data-metric="${m.metric}"]`)).toHaveText(cell({unit: m.unit}, m.exclusive));
    await expect(page.locator(`#summary td[data-flavor="inclusive"][data-metric="${m.metric}"]`)).toHaveText(cell({unit: m.unit}, m.inclusive));
  }
  await tab(page, 'callers');
  const cc = truth(['csingle two']);
  const p = cc.panels[0];
  await expectTable(page, '#callers-table', expectedRows(cc, p.callers));
  await expectTable(page, '#function-table', expectedRows(cc, [p.function]));
  await expectTable(page, '#callees-table', expectedRows(cc, p.callees));
  await screenshot(page, 'callers-callees');

  await tab(page, 'source');
  const src = truth(['source two']);
  const shown = await page.$$eval('#source-table tbody tr', trs => trs.map(tr => ({text: tr.querySelector('td.text').textContent, hot: tr.classList.contains('hot'), cells: [...tr.querySelectorAll('td.num')].map(td => td.textContent)})));
  expect(shown.map(r => r.text)).toEqual(src.rows.map(r => r.text));
  expect(shown.map(r => r.hot)).toEqual(src.rows.map(r => r.hot));
  expect(shown.map(r => r.cells)).toEqual(src.rows.map(r => src.columns.map((c, k) => r.values ? cell(c, r.values[k]) : '')));
  expect(src.rows.some(r => r.hot)).toBe(true);
  // Next hot line: the first ## line is selected.
  await page.click('#next-hot');
  await expect(page.locator('#source-table tr.selected')).toHaveClass(/hot/);
  await screenshot(page, 'source');

  await tab(page, 'disasm');
  const dis = truth(['disasm two']);
  const dshown = await page.$$eval('#disasm-table tbody tr', trs => trs.map(tr => tr.querySelector('td.text').textContent));
  expect(dshown).toEqual(dis.rows.map(r => r.text));
  await screenshot(page, 'disassembly');
});

test('Call Tree and Flame Graph equal er_print -calltree', async ({page}) => {
  await open(page, '#tab=calltree');
  const ct = truth(['calltree']);
  const rows = await tableRows(page, '#calltree-table');
  // The root row: <Total>.
  expect(rows[0]).toEqual([...ct.columns.map((c, k) => cell(c, ct.root.values[k])), '▾' + ct.root.name]);
  // Every open row is a node of er_print's tree, with its values, in er_print's order.
  const flat = [];
  const walk = (n, d) => { flat.push(n); if (d < 4) (n.children || []).forEach(k => walk(k, d + 1)); };
  walk(ct.root, 0);
  const names = rows.map(r => r[r.length - 1].slice(1));
  for (const n of flat.slice(0, 5)) expect(names).toContain(n.name);
  await screenshot(page, 'calltree');

  await tab(page, 'flame');
  const nodes = +(await page.getAttribute('#flame-canvas', 'data-nodes'));
  expect(nodes).toBeGreaterThan(3);
  // The widest frame is the root, its value er_print's inclusive total.
  const total = await page.evaluate(() => window.__flame.root.total);
  expect(total).toBe(ct.root.values[ct.columns.findIndex(c => c.flavor === 'inclusive' && c.unit !== 'percent')]);
  // Search highlights: the frames of two.
  await page.fill('#flame-search', '^two$');
  await screenshot(page, 'flame');
  // Click to zoom on two: it becomes the full width, and the selection.
  const r = await page.evaluate(() => { const x = window.__flame.rects.find(r => r.node.name === 'two'); return x && {x: x.x + x.w / 2, y: x.y + 5}; });
  expect(r).toBeTruthy();
  await page.click('#flame-canvas', {position: r});
  await expect(page.locator('#summary-name')).toHaveText('two');
  expect(await page.evaluate(() => window.__flame.zoom.name)).toBe('two');
  // Inverted: leaf functions at the bottom, their exclusive values summing to the total.
  await page.check('#flame-inverted');
  const leaves = await page.evaluate(() => window.__flame.root.children.map(c => [c.name, c.total]));
  const fn = truth(['functions']);
  const exc = fn.columns.findIndex(c => c.flavor === 'exclusive' && c.unit !== 'percent');
  for (const [name, v] of leaves) expect(v).toBe(fn.rows.find(x => x.name === name).values[exc]);
});

test('Lines, PCs, Statistics and Experiments equal er_print', async ({page}) => {
  await open(page, '#tab=lines');
  await expectTable(page, '#lines-table', expectedRows(truth(['lines'])));
  await tab(page, 'pcs');
  await expectTable(page, '#pcs-table', expectedRows(truth(['pcs'])));
  await tab(page, 'statistics');
  const st = truth(['statistics']);
  for (const [k, v] of Object.entries(st.total)) await expect(page.locator(`#statistics-table td[data-key="${k}"]`)).toHaveText(String(v));
  await tab(page, 'experiments');
  const h = truth(['header']).experiments[0];
  await expect(page.locator('section.experiment h3')).toHaveText(`Experiment ${h.id}: ${h.path}`);
  await expect(page.locator('section.experiment dd[data-key="pid"]')).toHaveText(String(h.pid));
  expect((await tableRows(page, '#objects-table')).length).toBe(truth(['objects']).objects.length);
  await screenshot(page, 'experiments');
});

test('Timeline: a dragged range filters every tab', async ({page}) => {
  await open(page, '#tab=timeline');
  const ov = truth(['overview']);
  expect(+(await page.getAttribute('#timeline-canvas', 'data-events'))).toBe(ov.experiments[0].samples.length);
  const box = await page.locator('#timeline-canvas').boundingBox();
  // Drag over the middle half of the time axis.
  await page.mouse.move(box.x + 110 + (box.width - 120) * 0.25, box.y + 40);
  await page.mouse.down();
  await page.mouse.move(box.x + 110 + (box.width - 120) * 0.75, box.y + 40, {steps: 5});
  await page.mouse.up();
  await expect(page.locator('#filter-label')).toContainText('TSTAMP >= ');
  const range = await page.evaluate(() => window.__timeline.range);
  await screenshot(page, 'timeline');
  await tab(page, 'functions');
  const filtered = truth([`filters TSTAMP >= ${range[0]} && TSTAMP < ${range[1]}`, 'functions']);
  const all = truth(['functions']);
  await expectTable(page, '#functions-table', expectedRows(filtered));
  expect(filtered.rows[0].values[0]).toBeLessThan(all.rows[0].values[0]);
  // The URL holds the range: a deep link opens the same view.
  expect(page.url()).toContain('range=');
  const page2 = await page.context().newPage();
  await page2.goto(page.url());
  await page2.waitForSelector('#left[data-ready="1"][data-tab="functions"]');
  await expectTable(page2, '#functions-table', expectedRows(filtered));
  await page2.click('#btn-clear-filter');
  await page2.waitForSelector('#left[data-ready="1"][data-tab="functions"]');
  await expect(page2.locator('#filter-label')).toHaveText('');
  await expectTable(page2, '#functions-table', expectedRows(all));
});

test('Filter Data dialog, context menu focus, keyboard navigation, deep link', async ({page}) => {
  await open(page);
  await page.click('#btn-filter');
  await page.fill('#filter-expr', 'THRID == 1');
  await page.click('#filter-apply');
  await page.waitForSelector('#left[data-ready="1"]');
  await expect(page.locator('#filter-label')).toHaveText('Filter: (THRID == 1)');
  await expectTable(page, '#functions-table', expectedRows(truth(['filters (THRID == 1)', 'functions'])));
  // A bad expression: er_print's message, the filter unchanged.
  await page.click('#btn-filter');
  await page.fill('#filter-expr', 'THRID == FOO');
  await page.click('#filter-apply');
  await expect(page.locator('#filter-error')).toContainText("unknown keyword 'FOO'");
  await page.keyboard.press('Escape');
  await page.click('#btn-clear-filter');
  await expect(page.locator('#filter-label')).toHaveText('');
  await expectTable(page, '#functions-table', expectedRows(truth(['functions'])));
  // Context menu: focus on one (stacks containing it).
  const one = fid('one');
  await page.locator('#functions-table tbody tr', {has: page.locator('td.name', {hasText: /^one$/})}).click({button: 'right'});
  await page.click('#context-menu li:has-text("Focus on this function")');
  await page.waitForSelector('#left[data-ready="1"]');
  await expect(page.locator('#filter-label')).toContainText(`${one} SOME IN STACK`);
  await expectTable(page, '#functions-table', expectedRows(truth([`filters (${one} SOME IN STACK)`, 'functions'])));
  await page.click('#btn-clear-filter');
  await expect(page.locator('#filter-label')).toHaveText('');
  // Keyboard: Home selects <Total>, Down the next row; Enter opens its callers-callees.
  const fn = truth(['functions']);
  await expectTable(page, '#functions-table', expectedRows(fn));
  await page.focus('#functions-table');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('#summary-name')).toHaveText(fn.rows[1].name);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#left[data-tab="callers"][data-ready="1"]');
  expect(page.url()).toContain(`fn=${fn.rows[1].id}`);
  // Deep link straight to a tab and a selection.
  await open(page, `#tab=callers&fn=${one}`);
  await expect(page.locator('#summary-name')).toHaveText('one');
  const cc = truth(['csingle one']);
  await expectTable(page, '#function-table', expectedRows(cc, [cc.panels[0].function]));
});

test('context menu: hide a load object, show all again', async ({page}) => {
  await open(page);
  await page.locator('#functions-table tbody tr', {has: page.locator('td.name', {hasText: /^two$/})}).click({button: 'right'});
  await page.click('#context-menu li:has-text("Hide this load object")');
  const hidden = truth(['object_hide work_ratio', 'functions']);
  expect(hidden.rows.some(r => r.name === 'two')).toBe(false);
  await expectTable(page, '#functions-table', expectedRows(hidden));
  await page.locator('#functions-table tbody tr').first().click({button: 'right'});
  await page.click('#context-menu li:has-text("Show all load objects")');
  await expectTable(page, '#functions-table', expectedRows(truth(['functions'])));
});

test('Set Data Presentation: OK applies, Save writes .er.rc that er_print reads', async ({page}) => {
  await open(page);
  await page.click('#btn-present');
  // Show inclusive system time too, sort by inclusive user time.
  const sys = page.locator('#present-metrics tr[data-metric="system"]');
  await sys.locator('.fl-i').check();
  await sys.locator('.v-time').check();
  await page.selectOption('#present-sort', 'i.user');
  await page.click('#present-save');
  // The dialog closes once the file is written and the settings applied.
  await expect(page.locator('#dlg-present')).not.toBeVisible();
  const rc = fs.readFileSync(path.join(dir, '.er.rc'), 'utf8');
  expect(rc).toMatch(/^dmetrics .*i\.system/m);
  expect(rc).toMatch(/^dsort i\.user$/m);
  // er_print in that directory reads the saved .er.rc: the same table as the page.
  const fn = truth(['functions']);
  expect(fn.columns.some(c => c.flavor === 'inclusive' && c.metric === 'system')).toBe(true);
  await expectTable(page, '#functions-table', expectedRows(fn));
  fs.rmSync(path.join(dir, '.er.rc'));
});

test('LeakList shows er_print leaks; the tab only where heap data exists', async ({page}) => {
  await open(page);
  await expect(page.locator('#tab-leaks')).toHaveCount(0);
  const s2 = await startAnalyzer(dir, [leaks]);
  try {
    await page.goto(s2.url + '#tab=leaks');
    await page.waitForSelector('#left[data-tab="leaks"][data-ready="1"]');
    const want = erPrintData(dir, [leaks], ['leaks']);
    expect(want.summary.instances).toBe(42);
    const rows = await page.$$eval('#leaks-table tbody tr', trs => trs.map(tr => [tr.cells[1].textContent, tr.cells[3].textContent]));
    expect(rows).toEqual(want.entries.map(e => [String(e.bytes), String(e.count)]));
    await screenshot(page, 'leaks');
  } finally { s2.proc.kill('SIGTERM'); }
});

// Raw HTTP, as another local program (or a rebinding web page) would send it.
function get(pathname, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({host: '127.0.0.1', port: server.port, path: pathname, headers: {Host: `127.0.0.1:${server.port}`, ...headers}}, res => {
      let body = '';
      res.on('data', d => body += d);
      res.on('end', () => resolve({status: res.statusCode, body, headers: res.headers}));
    });
    req.on('error', reject);
    req.end();
  });
}

test('security: token, Host, Origin, no files outside the page', async () => {
  const t = `token=${server.token}`;
  expect((await get(`/?${t}`)).status).toBe(200);
  expect((await get('/')).status).toBe(403);
  expect((await get('/api/run?c=functions')).status).toBe(403);
  for (const p of ['/api/events', '/api/collect/status', '/api/collect/initial', '/api/fnid?name=two'])
    expect((await get(p)).status).toBe(403);
  expect((await get(`/api/events?buckets=0&${'token=' + server.token}`)).status).toBe(400);
  expect((await get(`/api/run?c=functions&token=${'0'.repeat(32)}`)).status).toBe(403);
  expect((await get(`/?${t}`, {Host: `evil.example:${server.port}`})).status).toBe(403);
  expect((await get(`/?${t}`, {Host: 'localhost:1'})).status).toBe(403);
  expect((await get(`/?${t}`, {Origin: 'http://evil.example'})).status).toBe(403);
  expect((await get(`/api/run?c=functions`, {'X-Erkit-Token': server.token})).status).toBe(200);
  // Path traversal: nothing but the embedded assets is served.
  for (const p of ['/assets/../../../../etc/passwd', '/assets/..%2f..%2f..%2fetc%2fpasswd', '/../../etc/passwd',
                   '/assets/%2e%2e/%2e%2e/etc/passwd', '/etc/passwd', '/assets/'])
    expect([403, 404, 400]).toContain((await get(`${p}?${t}`)).status);
  expect((await get(`/assets/app.js?${t}`)).status).toBe(200);
  // Commands that write or read files are refused.
  for (const c of ['outfile /tmp/x', 'script /etc/passwd', 'source /etc/passwd', 'setpath /'])
    expect((await get(`/api/run?c=${encodeURIComponent(c)}&${t}`)).status).toBe(400);
  expect((await get(`/api/fn?cmd=outfile&id=1&${t}`)).status).toBe(400);
  expect((await get(`/api/fn?cmd=source&id=../../etc/passwd&${t}`)).status).toBe(400);
  // The page's answers forbid framing and foreign scripts.
  const r = await get(`/?${t}`);
  expect(r.headers['content-security-policy']).toContain("default-src 'self'");
  expect(r.headers['set-cookie'][0]).toContain('HttpOnly');
});
