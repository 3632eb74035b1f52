// The analyzer's speed on a large experiment (docs/performance.md, "analyzer"): time to the
// first screen, server time of each tab switch and selection, canvas redraw times.
//   node bench/analyzer/measure.mjs BUILD_DIR [EVENTS]     (Playwright from tests/analyzer/)
// Writes a markdown table on stdout.
import {createRequire} from 'node:module';
import {execFileSync, spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import url from 'node:url';

const here = path.dirname(url.fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../tests/analyzer/package.json'));
const {chromium} = require('@playwright/test');

const build = path.resolve(process.argv[2] || 'build');
const events = +(process.argv[3] || 1000000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'erkit-analyzer-bench-'));
const exp = path.join(dir, 'synth.er');
execFileSync(path.join(build, 'bin/erkit-synth'), ['--out', exp, '--events', String(events), '--stacks', '100000', '--depth', '30'], {stdio: 'inherit'});

// The browser runs before the analyzer starts (as a user's does), so the time from the start to
// the first screen counts no browser start-up.
const browser = await chromium.launch({executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox']});
const page = await browser.newPage({viewport: {width: 1280, height: 800}});
const t0 = performance.now();
const proc = spawn(path.join(build, 'bin/analyzer'), ['--no-browser', exp], {cwd: dir, stdio: ['ignore', 'pipe', 'inherit']});
const link = await new Promise((resolve, reject) => {
  let out = '';
  proc.stdout.on('data', d => { out += d; const m = out.match(/^analyzer: (http\S+)$/m); if (m) resolve(m[1]); });
  proc.on('exit', c => reject(new Error(`analyzer exited ${c}`)));
});
const tLoaded = performance.now();
process.stderr.write(`loaded in ${((tLoaded - t0) / 1000).toFixed(2)} s\n`);
process.on('exit', () => proc.kill('SIGTERM'));
const tNav = performance.now();
await page.goto(link);
await page.waitForSelector('#left[data-ready="1"] #functions-table');
const tFirst = performance.now();
// The server's own times: reading the experiment, and the function list's report after it.
const serverInfo = await page.evaluate(async () => (await fetch('/api/info', {credentials: 'same-origin'})).json());

// Server time of the API requests since the mark: the longest one (the page waits for each).
const apiTime = () => page.evaluate(() => {
  const e = performance.getEntriesByType('resource').filter(r => r.name.includes('/api/'));
  performance.clearResourceTimings();
  return e.length ? Math.max(...e.map(r => r.responseStart - r.requestStart)) : 0;
});
await apiTime();
// ERKIT_BENCH_AFTER_PREWARM=1: click once the server has computed every tab's report (as a
// user who looks at the first screen for a while); otherwise at once.
let tPrewarmed = NaN;
if (process.env.ERKIT_BENCH_AFTER_PREWARM) {
  while (!(await page.evaluate(async () => (await (await fetch('/api/info', {credentials: 'same-origin'})).json()).prewarmed)))
    await new Promise(r => setTimeout(r, 100));
  tPrewarmed = performance.now();
  process.stderr.write(`prewarmed ${((tPrewarmed - t0) / 1000).toFixed(2)} s after start\n`);
}
await apiTime();
const rows = [];
// A selected function, so that Callers-Callees, Source and Disassembly have work to do.
await page.locator('#functions-table tbody tr').nth(1).click();
await page.waitForFunction(() => document.querySelector('#summary-name'));
await apiTime();
const step = (what, p) => Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error(`${what}: over 120 s`)), 120_000))]);
for (const tab of ['callers', 'calltree', 'flame', 'source', 'lines', 'disasm', 'pcs', 'timeline', 'statistics', 'experiments', 'functions', 'calltree']) {
  const s = performance.now();
  process.stderr.write(`tab ${tab}...\n`);
  try {
    await step(tab, (async () => {
      await page.click(`#tab-${tab}`);
      await page.waitForSelector(`#left[data-tab="${tab}"][data-ready="1"]`, {timeout: 120_000});
    })());
  } catch (e) {
    rows.push([`tab ${tab}`, 0, NaN, e.message]);
    break;
  }
  rows.push([`tab ${tab}`, await apiTime(), performance.now() - s]);
  if (tab === 'functions') {
    const s2 = performance.now();
    await page.locator('#functions-table tbody tr').nth(2).click();
    await page.waitForFunction(() => document.querySelector('#summary-name'));
    rows.push(['select a function (Summary)', await apiTime(), performance.now() - s2]);
  }
  if (tab === 'flame') {
    const d = await page.evaluate(() => { window.__flame.draw(); return window.__flame.lastDraw; });
    rows.push([`flame graph redraw (${d.nodes} frames)`, 0, d.ms]);
  }
  if (tab === 'timeline') {
    const d = await page.evaluate(() => { window.__timeline.draw(); return window.__timeline.lastDraw; });
    rows.push([`timeline redraw (${d.events} samples)`, 0, d.ms]);
  }
  if (tab === 'timeline') {
    // The per-thread bars: a redraw of what is shown, and a zoom (the server's events of half the run).
    const d = await page.evaluate(() => { const t = window.__threads; t.draw(); return {ms: +t.canvas.dataset.drawMs, n: +t.canvas.dataset.drawn}; });
    rows.push([`per-thread timeline redraw (${d.n} events drawn)`, 0, d.ms]);
    const s3 = performance.now();
    await page.evaluate(async () => { const t = window.__threads; t.view = [0, t.end / 2]; await t.refetch(); });
    rows.push(['per-thread timeline zoom to half the run (events fetched)', await apiTime(), performance.now() - s3]);
  }
}
// Canvas redraws at the size, with the page's own classes: a flame graph of 10,000
// visible frames (1,000 chains of 10 under the root, each frame about 1 px wide) and a
// timeline of 10,000 samples.
await page.click('#tab-flame');
await page.waitForSelector('#left[data-tab="flame"][data-ready="1"]');
const flame10k = await page.evaluate(() => {
  const g = window.__flame;
  const root = {name: 'root', id: 0, total: 1000, self: 0, children: []};
  for (let i = 0; i < 1000; ++i) {
    let n = {name: `f${i}`, id: i + 1, total: 1, self: 0, children: []};
    root.children.push(n);
    for (let d = 0; d < 9; ++d) { const c = {name: `g${(i * 7 + d) % 100}`, id: 2000 + d, total: 1, self: 0, children: []}; n.children.push(c); n = c; }
    n.self = 1;
  }
  g.set(root);
  const times = [];
  for (let k = 0; k < 5; ++k) { g.draw(); times.push(g.lastDraw.ms); }
  times.sort((a, b) => a - b);
  return {ms: times[2], nodes: g.lastDraw.nodes};
});
rows.push([`flame graph redraw, synthetic (${flame10k.nodes} frames, median of 5)`, 0, flame10k.ms]);
await page.click('#tab-timeline');
await page.waitForSelector('#left[data-tab="timeline"][data-ready="1"]');
const tl10k = await page.evaluate(() => {
  const t = window.__timeline;
  const samples = [];
  for (let i = 0; i < 10000; ++i) samples.push({start_ns: i * 1e6, end_ns: (i + 1) * 1e6, microstates_ns: {user: 600000, system: 100000, wait: 300000}});
  t.set({experiments: [{experiment: 1, samples}]}, null);
  const times = [];
  for (let k = 0; k < 5; ++k) { t.draw(); times.push(t.lastDraw.ms); }
  times.sort((a, b) => a - b);
  return {ms: times[2], events: t.lastDraw.events};
});
rows.push([`timeline redraw, synthetic (${tl10k.events} samples, median of 5)`, 0, tl10k.ms]);
const th10k = await page.evaluate(() => {
  // 10,000 events of 20-frame stacks over 10 bars, drawn as stacks.
  const t = window.__threads;
  const stacks = [];
  for (let i = 0; i < 100; ++i) stacks.push(Array.from({length: 20}, (_, d) => (i * 31 + d) % 1000));
  const threads = [];
  for (let b = 0; b < 10; ++b) threads.push({exp: 1, thread: b + 1, lwp: 100 + b, events: 1000, kinds: {clock: {count: 1000, shown: Array.from({length: 1000}, (_, i) => [i * 1e6, (i + b) % 100])}}});
  t.view = [0, 1e9];
  t.set({t0: 0, t1: 1e9, end_ns: 1e9, buckets: 1000, threads, stacks, functions: {}}, null);
  const times = [];
  for (let k = 0; k < 5; ++k) { t.draw(); times.push(+t.canvas.dataset.drawMs); }
  times.sort((a, b) => a - b);
  return {ms: times[2], n: +t.canvas.dataset.drawn};
});
rows.push([`per-thread timeline redraw, synthetic (${th10k.n} events as 20-frame stacks, median of 5)`, 0, th10k.ms]);
console.log(`analyzer on ${events.toLocaleString('en')} events (erkit-synth, 100,000 stacks × 30): ` +
            `URL printed after ${((tLoaded - t0) / 1000).toFixed(2)} s, ` +
            `page load to the Functions table ${((tFirst - tNav) / 1000).toFixed(2)} s, ` +
            `**start to first screen ${((tFirst - t0) / 1000).toFixed(2)} s** ` +
            `(server: experiment read in ${serverInfo.load_seconds} s wall / ${serverInfo.load_cpu_seconds} s CPU, ` +
            `function list ${serverInfo.functions_seconds} s wall / ${serverInfo.functions_cpu_seconds} s CPU; ` +
            `load average ${os.loadavg()[0].toFixed(1)})` +
            (isNaN(tPrewarmed) ? '' : `, every tab's report computed ${((tPrewarmed - t0) / 1000).toFixed(2)} s after start`) + '\n');
console.log('| action | longest server time ms | wall in the browser ms |\n|---|---|---|');
for (const [a, srv, wall, note] of rows) console.log(`| ${a} | ${srv ? srv.toFixed(0) : '-'} | ${note || wall.toFixed(0)} |`);
await browser.close();
proc.kill('SIGTERM');
fs.rmSync(dir, {recursive: true, force: true});
fs.rmSync(exp + '.src', {recursive: true, force: true});
