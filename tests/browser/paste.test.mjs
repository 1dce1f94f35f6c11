// A large paste (issue 27, point 7): a 5 MB `kubectl get -A -o yaml` (`gen-dump.py --pods 250`) pasted
// with Ctrl+V is not put into the paste box (a textarea holding megabytes made each keystroke and render
// slow: 6.4 s of main thread for the paste, 0.7 s a key). It becomes an input of its own, `paste-1`,
// held as the browser's Blob and read by the worker like a dropped file, with its progress counted from
// its real size; its lines are shown in the viewer, and "Edit it in the paste box" moves it there.
// The main thread's long tasks are measured during the paste and the analysis (`make bench` prints the
// same figure for each dump size).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, serveDist, launchBrowser, analysed, screenshot } from './harness.mjs';

let server;
let browser;
let dump;

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-paste-'));
  const file = join(dir, 'dump-250.yaml');
  execFileSync('python3', [join(ROOT, '../shared/tools/gen-dump.py'), '--pods', '250', '--format', 'yaml', '--out', file]);
  dump = readFileSync(file, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  server = await serveDist();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(t, lang = 'en-US') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: lang });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  t.after(() => context.close());
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  t.after(() => assert.deepEqual(errors, []));
  await page.goto(server.url, { waitUntil: 'load' });
  await page.locator('.finding').first().waitFor();
  // The worker loaded and warm, as the page has it once idle: its start-up is not the paste's cost.
  await page.locator('html[data-engine="warm"]').waitFor({ state: 'attached', timeout: 60_000 });
  return page;
}

/** Pastes `text` into the paste box as a user does: the system clipboard, then Ctrl+V (a trusted
 * paste event, whose default action inserts the text unless the page prevents it). */
async function paste(page, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.evaluate(() => {
    window.__long = [];
    window.__start = performance.now();
    window.__progress = [];
    new PerformanceObserver((list) => window.__long.push(...list.getEntries()
      .map((e) => [Math.round(e.startTime - window.__start), Math.round(e.duration)]))).observe({ type: 'longtask' });
    // Every progress line the page shows while the analysis runs.
    new MutationObserver(() => {
      const counts = document.querySelector('.analysis-counts')?.textContent;
      if (counts && window.__progress.at(-1) !== counts) window.__progress.push(counts);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.locator('#paste').focus();
  await page.keyboard.press('Control+V');
}

test('a 5 MB paste becomes an input of its own, read by the worker, with its real size and no long task', async (t) => {
  const page = await open(t);
  assert.ok(dump.length > 4_000_000, `${dump.length} characters`);
  await paste(page, dump);
  await page.locator('.input-row .source', { hasText: 'paste-1' }).waitFor({ timeout: 120_000 });
  await analysed(page, 120_000);
  await page.waitForTimeout(500); // the frames after the report
  const long = await page.evaluate(() => window.__long);
  const longest = Math.max(0, ...long.map(([, d]) => d));
  t.diagnostic(`long tasks from the paste to the report shown: ${JSON.stringify(long)}, longest ${longest} ms`);
  // The figure against the 50 ms target is `make bench`'s; here, a margin for a shared machine that
  // still tells this path from the old one (6,353 ms in one task, then 16 more over 50 ms).
  assert.ok(longest < 250, `longest main-thread task ${longest} ms`);

  // The box holds nothing; the text is the input `paste-1`, analysed whole (the sample replaced).
  assert.equal(await page.locator('#paste').inputValue(), '');
  const row = await page.locator('.input-row', { hasText: 'paste-1' }).textContent();
  assert.match(row, /Pod 250/);
  assert.equal(await page.locator('.input-row').count(), 1, 'the sample is gone');
  assert.ok(await page.locator('.finding').count() > 0);
  // The progress counted the paste's real size from the start ("0.0 of 4.6 MB", never "of 0.0").
  const progress = await page.evaluate(() => window.__progress);
  t.diagnostic(`progress lines: ${JSON.stringify(progress)}`);
  const mb = (dump.length / (1024 * 1024)).toFixed(1);
  assert.ok(progress.length > 0 && progress.every((p) => p.includes(`of ${mb} MB`)), JSON.stringify(progress));

  // Under the box: what became of it, with "Show it" (the viewer, its lines from the worker).
  const note = page.locator('.large-paste[data-input="paste-1"]');
  assert.match(await note.textContent(), /Your 4\.\d MB paste is kept as the input paste-1/);
  await screenshot(page, 'large-paste-en');
  await note.locator('.show-large').click();
  const first = page.locator('.input-viewer .line[data-line="1"] .text');
  await first.waitFor({ timeout: 30_000 });
  assert.equal(await first.textContent(), dump.split('\n')[0]);
  await page.locator('.viewer-back').click();

  // "Edit it in the paste box": the text goes into the box, the input `paste-1` is gone, and the
  // report is of the box's text (evidence cites `paste:`).
  await note.locator('.edit-large').click();
  await page.waitForFunction((n) => document.querySelector('#paste').value.length === n, dump.length, { timeout: 60_000 });
  await analysed(page, 120_000);
  assert.equal(await page.locator('.large-paste').count(), 0);
  assert.deepEqual(await page.locator('.input-row .source').allTextContents(), ['paste']);
  assert.match(await page.locator('.finding .evidence li').first().textContent(), /^paste:\d+/);
});

test('a small paste still goes into the box; a second large one is paste-2, beside it (zh)', async (t) => {
  const page = await open(t, 'zh-CN');
  await paste(page, 'kubectl get pods\n');
  await page.waitForFunction(() => document.querySelector('#paste').value === 'kubectl get pods\n');
  await paste(page, dump);
  await page.locator('.input-row .source', { hasText: 'paste-1' }).waitFor({ timeout: 120_000 });
  await analysed(page, 120_000);
  await paste(page, dump.replaceAll('namespace: ', 'namespace: x'));
  await page.locator('.input-row .source', { hasText: 'paste-2' }).waitFor({ timeout: 120_000 });
  await analysed(page, 120_000);
  assert.equal(await page.locator('#paste').inputValue(), 'kubectl get pods\n', 'the box keeps what it had');
  assert.deepEqual(await page.locator('.large-paste').evaluateAll((ps) => ps.map((p) => p.dataset.input)), ['paste-1', 'paste-2']);
  assert.match(await page.locator('.large-paste').first().textContent(), /你粘贴的 4\.\d MB 文本作为输入 paste-1 保存在粘贴框之外/);
  await screenshot(page, 'large-paste-zh');
});
