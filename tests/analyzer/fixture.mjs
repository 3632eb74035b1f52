// Experiments of tests/programs recorded with collect, an analyzer serving them, and
// er_print -json over the same experiments: the ground truth the page is compared with.
import {execFileSync, spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const BIN = process.env.ERKIT_BIN_DIR && path.resolve(process.env.ERKIT_BIN_DIR);
export const PROGRAMS = process.env.ERKIT_TEST_PROGRAMS_DIR && path.resolve(process.env.ERKIT_TEST_PROGRAMS_DIR);
if (!BIN || !PROGRAMS) throw new Error('ERKIT_BIN_DIR and ERKIT_TEST_PROGRAMS_DIR must be set (ctest sets them)');

export function tempDir() { return fs.mkdtempSync(path.join(os.tmpdir(), 'erkit-analyzer-')); }

// Records `program args` into dir/name with collect; returns the experiment path.
export function record(dir, name, program, args = [], options = []) {
  const exp = path.join(dir, name);
  execFileSync(path.join(BIN, 'collect'), ['-d', dir, '-o', name, ...options, path.join(PROGRAMS, program), ...args],
               {stdio: ['ignore', 'ignore', 'inherit'], cwd: dir});
  return exp;
}

// er_print -json: the report objects of the commands (the last one's data by default).
// The commands go through a script file, written as the page sends them (one per line).
export function erPrint(cwd, experiments, commands) {
  const script = path.join(cwd, `.script-${process.pid}-${Date.now()}`);
  fs.writeFileSync(script, commands.join('\n') + '\n');
  let out;
  try {
    out = execFileSync(path.join(BIN, 'er_print'), ['-json', '-script', script, ...experiments], {cwd, encoding: 'utf8'});
  } finally { fs.rmSync(script); }
  return out.trim().split('\n').map(l => JSON.parse(l));
}
export function erPrintData(cwd, experiments, commands) {
  const all = erPrint(cwd, experiments, commands);
  return all[all.length - 1].data;
}

// Starts `analyzer --no-browser experiments` in cwd; resolves to {url, port, token, proc}.
export function startAnalyzer(cwd, experiments, extra = []) {
  const proc = spawn(path.join(BIN, 'analyzer'), ['--no-browser', ...extra, ...experiments], {cwd, stdio: ['ignore', 'pipe', 'inherit']});
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', d => {
      out += d;
      const m = out.match(/^analyzer: (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+))$/m);
      if (m) resolve({url: m[1], port: +m[2], token: m[3], proc});
    });
    proc.on('exit', code => reject(new Error(`analyzer exited (${code}) before printing its URL: ${out}`)));
  });
}

// The text er_print's text reports print for a JSON value (docs/er_print.md).
export function cell(column, v) {
  if (v === null || v === undefined) return '';
  if (column.unit === 'percent') return v === 0 ? '0.' : v.toFixed(2);
  if (column.unit === 'ns') return v === 0 ? '0.' : (v / 1e9).toFixed(3);
  return String(v);
}
export function expectedRows(data, rows = data.rows) {
  return rows.map(r => [...data.columns.map((c, k) => cell(c, r.values ? r.values[k] : null)), r.name]);
}

// What a metrics table shows: per row, its cells' text.
export async function tableRows(page, selector) {
  return page.$$eval(`${selector} tbody tr`, trs => trs.map(tr => [...tr.cells].map(td => td.textContent)));
}

export const screenshotDir = process.env.ERKIT_SCREENSHOT_DIR || '';
export async function screenshot(page, name) {
  if (screenshotDir) await page.screenshot({path: path.join(screenshotDir, `analyzer-${name}.png`)});
}
