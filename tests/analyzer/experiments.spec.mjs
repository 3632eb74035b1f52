// The Experiments tab's editable notes and the Create Mapfile dialog in real headless Chromium:
// Save writes the experiment's notes file (er_print's header then shows it, and so does the
// page), Discard restores the saved text; Create Mapfile shows exactly er_print's
// `mapfile OBJECT - FORMAT` text and offers it as a download.
import {test, expect} from '@playwright/test';
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {BIN, record, tempDir, erPrintData, startAnalyzer, screenshot} from './fixture.mjs';

let dir, exp, server;

test.beforeAll(async () => {
  dir = tempDir();
  exp = record(dir, 'test.1.er', 'work_ratio', ['20000000'], ['-C', 'first comment']);
  server = await startAnalyzer(dir, [exp]);
});
test.afterAll(() => {
  if (server) server.proc.kill('SIGTERM');
  if (dir) fs.rmSync(dir, {recursive: true, force: true});
});

async function experimentsTab(page) {
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="1"]');
  await page.click('#tab-experiments');
  await page.waitForSelector('#left[data-tab="experiments"][data-ready="1"]');
}

test('Experiments tab: notes are edited, saved into the experiment, discarded', async ({page}) => {
  await experimentsTab(page);
  const ta = page.locator('.notes[data-id="1"] .notes-text');
  await expect(ta).toHaveValue(erPrintData(dir, [exp], ['header']).experiments[0].notes.join('\n'));
  await expect(ta).toHaveValue('first comment');
  await ta.fill('first comment\nsecond line: after the rebuild');
  await page.click('.notes[data-id="1"] .notes-save');
  await expect(page.locator('.notes[data-id="1"] .notes-state')).toHaveText('saved');
  // The file, and er_print's header of the experiment.
  expect(fs.readFileSync(path.join(exp, 'notes'), 'utf8')).toBe('first comment\nsecond line: after the rebuild\n');
  expect(erPrintData(dir, [exp], ['header']).experiments[0].notes).toEqual(['first comment', 'second line: after the rebuild']);
  await screenshot(page, 'notes');
  // Discard: back to the saved text; a reload shows the model's header with the new notes.
  await ta.fill('not kept');
  await page.click('.notes[data-id="1"] .notes-discard');
  await expect(ta).toHaveValue('first comment\nsecond line: after the rebuild');
  await experimentsTab(page);
  await expect(page.locator('.notes[data-id="1"] .notes-text')).toHaveValue('first comment\nsecond line: after the rebuild');
  expect(fs.readFileSync(path.join(exp, 'notes'), 'utf8')).toBe('first comment\nsecond line: after the rebuild\n');
});

test('Create Mapfile: er_print\'s mapfile text for the chosen load object and format', async ({page}) => {
  await experimentsTab(page);
  await page.click('#btn-mapfile');
  await expect(page.locator('#dlg-mapfile')).toBeVisible();
  for (const format of ['lld', 'gnu']) {
    await page.selectOption('#mapfile-object', 'work_ratio');
    await page.selectOption('#mapfile-format', format);
    await page.click('#mapfile-create');
    const want = execFileSync(path.join(BIN, 'er_print'), ['-mapfile', 'work_ratio', '-', format, exp], {cwd: dir, encoding: 'utf8'});
    await expect(page.locator('#mapfile-text')).toHaveText(want.replace(/\n$/, ''), {useInnerText: false});
    expect(want).toContain('two');
    // Save hands the same text to the browser as a download.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#mapfile-save')]);
    const saved = path.join(dir, `saved.${format}`);
    await download.saveAs(saved);
    expect(fs.readFileSync(saved, 'utf8')).toBe(want);
  }
  await screenshot(page, 'mapfile');
  // A load object that does not exist: er_print's message, no text.
  const r = await page.evaluate(async () => { const x = await fetch('/api/mapfile?object=nosuch&format=lld'); return [x.status, (await x.json()).error]; });
  expect(r[0]).toBe(400);
  expect(r[1]).toContain("no load object named 'nosuch'");
});
