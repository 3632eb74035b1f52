// Playwright drives Debian's chromium (no browser download): docs/analyzer.md, "Tests".
import {defineConfig} from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.mjs',
  workers: 1,              // one analyzer and one browser: cheap on a loaded 2-core machine
  timeout: 60_000,
  reporter: [['list']],
  outputDir: process.env.ERKIT_ANALYZER_OUT || '/tmp/erkit-analyzer-test-results',
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox']},
    viewport: {width: 1280, height: 800},
  },
});
