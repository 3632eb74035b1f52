// The Collect window in real headless Chromium: `analyzer [collect options] target args` opens
// it filled in; Preview Command is the exact collect line; Run shows collect's output, the
// Sample button's signal reaches the target (one more sample), and the new experiment opens
// with er_print's numbers. The server runs collect only with the token, from an argv array.
import {test, expect} from '@playwright/test';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {PROGRAMS, tempDir, erPrintData, startAnalyzer, tableRows, screenshot, cell, record} from './fixture.mjs';

let dir;
test.beforeAll(() => { dir = tempDir(); });
test.afterAll(() => { if (dir) fs.rmSync(dir, {recursive: true, force: true}); });

function post(port, pathname, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request({host: '127.0.0.1', port, path: pathname, method: 'POST',
                              headers: {Host: `127.0.0.1:${port}`, 'Content-Type': 'application/json', ...headers}}, res => {
      let b = '';
      res.on('data', d => b += d);
      res.on('end', () => resolve({status: res.statusCode, body: b}));
    });
    req.on('error', reject);
    req.end(data);
  });
}

test('Collect window: preview, run, sample signal, the new experiment opens', async ({page}) => {
  const target = path.join(PROGRAMS, 'work_ratio');
  // Baseline: the samples of a run without the signal (-S off: no periodic samples).
  const base = record(dir, 'base.er', 'work_ratio', ['20000000'], ['-S', 'off']);
  const baseSamples = erPrintData(dir, [base], ['overview']).experiments[0].samples.length;

  const s = await startAnalyzer(dir, [], ['-p', 'hi', '-S', 'off', target, '300000000']);
  try {
    // No token: refused, nothing runs.
    expect((await post(s.port, '/api/collect/run', {target})).status).toBe(403);
    expect((await post(s.port, '/api/collect/run', {target}, {'X-Erkit-Token': s.token, Origin: 'http://evil.example'})).status).toBe(403);
    // A value collect does not take is refused before anything runs.
    const bad = await post(s.port, '/api/collect/preview', {target, clock: 'on; touch /tmp/x'}, {'X-Erkit-Token': s.token});
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toContain('is not a value collect takes');

    await page.goto(s.url);
    await page.waitForSelector('body[data-ready="1"]');
    await expect(page.locator('#dlg-collect')).toBeVisible();
    await expect(page.locator('#collect-target')).toHaveValue(target);
    await expect(page.locator('#collect-args')).toHaveValue('300000000');
    await expect(page.locator('#collect-clock')).toHaveValue('hi');
    await page.click('#collect-preview');
    const expected = `collect -p hi -S off -y SIGUSR1,r -l SIGUSR2 -d ${dir} -o test.1.er ${target} 300000000`;
    await expect(page.locator('#collect-command')).toHaveText(expected);
    await screenshot(page, 'collect');

    await page.click('#collect-run');
    await expect(page.locator('#collect-state')).toContainText('running');
    // Sample: retried (after each answer, never while one is pending, so exactly one is
    // sent) until the collector in the target catches the signal.
    for (let i = 0; ; ++i) {
      await page.click('#collect-sample');
      await page.waitForFunction(() => document.getElementById('collect-state').textContent === 'sent sample' || document.getElementById('collect-error').textContent !== '',
                                 null, {timeout: 20_000}).catch(() => {});
      if (await page.textContent('#collect-state') === 'sent sample') break;
      expect(await page.textContent('#collect-error')).toContain('try again');
      expect(i).toBeLessThan(100);
      await page.waitForTimeout(200);
    }
    // Pause and Resume: the -y signal, twice; the target goes on (it ends with status 0 below).
    await page.click('#collect-pause');
    await expect(page.locator('#collect-state')).toHaveText('sent pause');
    await page.click('#collect-resume');
    await expect(page.locator('#collect-state')).toHaveText('sent resume');
    // The run ends, the page opens the experiment: the Functions tab equals er_print's.
    await page.waitForSelector('#functions-table', {timeout: 120_000});
    await page.waitForSelector('#left[data-ready="1"][data-tab="functions"]');
    const exp = path.join(dir, 'test.1.er');
    const fn = erPrintData(dir, [exp], ['functions']);
    const rows = await tableRows(page, '#functions-table');
    expect(rows).toEqual(fn.rows.map(r => [...fn.columns.map((c, k) => cell(c, r.values[k])), r.name]));
    expect(fn.rows.map(r => r.name)).toContain('two');
    // The buttons' signals reached the target: the Sample one records a sample point, and so
    // do the pause and the resume (collect marks each): three samples more than the run
    // without them.
    const ov = erPrintData(dir, [exp], ['overview']);
    expect(ov.experiments[0].samples.length).toBe(baseSamples + 3);
    // The header records the command line the window showed.
    const h = erPrintData(dir, [exp], ['header']).experiments[0];
    expect([h.target].flat().join(' ')).toContain(target);
    expect([h.args].flat().map(String)).toContain('300000000');
  } finally { s.proc.kill('SIGTERM'); }
});

test('Collect window: Java, group and archive fields; a run into a group with archived copies', async ({page}) => {
  const own = tempDir();
  const target = path.join(PROGRAMS, 'work_ratio');
  const s = await startAnalyzer(own, [], ['-A', 'copy', '-g', 'runs.erg', '-S', 'off', target, '20000000']);
  try {
    await page.goto(s.url);
    await page.waitForSelector('body[data-ready="1"]');
    await expect(page.locator('#dlg-collect')).toBeVisible();
    await expect(page.locator('#collect-group')).toHaveValue('runs.erg');
    await expect(page.locator('#collect-archive')).toHaveValue('copy');
    // The Java fields in the exact line (preview only: collect refuses -J for a target that is
    // not java); -J's value is one word, quoted for a shell.
    await page.selectOption('#collect-java', 'on');
    await page.fill('#collect-java_args', '-Xmx1g -Dk=v w');
    await page.click('#collect-preview');
    await expect(page.locator('#collect-command')).toHaveText(
        `collect -S off -j on -J '-Xmx1g -Dk=v w' -g runs.erg -A copy -y SIGUSR1,r -l SIGUSR2 -d ${own} -o test.1.er ${target} 20000000`);
    // A group name that is not a plain .erg file name is refused.
    await page.fill('#collect-group', '../up.erg');
    await page.click('#collect-preview');
    await expect(page.locator('#collect-error')).toContainText('is not a value collect takes');
    await page.fill('#collect-group', 'runs.erg');
    await page.selectOption('#collect-java', '');
    await page.fill('#collect-java_args', '');
    await page.click('#collect-run');
    await page.waitForSelector('#left[data-ready="1"][data-tab="functions"] #functions-table', {timeout: 120_000});
    // collect wrote the group (its member: the new experiment) and the archived copy of the target.
    const members = fs.readFileSync(path.join(own, 'runs.erg'), 'utf8').split('\n').filter(l => l && !l.startsWith('#'));
    expect(members.map(m => path.basename(m.trim()))).toEqual(['test.1.er']);
    const archives = fs.readdirSync(path.join(own, 'test.1.er', 'archives'));
    expect(archives.some(a => a.startsWith('work_ratio.') && !a.endsWith('.archive'))).toBe(true);
    // The page shows er_print's function list of the experiment it opened.
    const fn = erPrintData(own, [path.join(own, 'test.1.er')], ['functions']);
    const rows = await tableRows(page, '#functions-table');
    expect(rows).toEqual(fn.rows.map(r => [...fn.columns.map((c, k) => cell(c, r.values[k])), r.name]));
  } finally {
    s.proc.kill('SIGTERM');
    fs.rmSync(own, {recursive: true, force: true});
  }
});
