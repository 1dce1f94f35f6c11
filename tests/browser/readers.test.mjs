// A big List read by several workers at once (issue 43): the engine's worker cuts it at item
// boundaries, reader workers read the parts, and the merged reading gives the very report one
// worker gives; a reader that fails costs time, never the report. Figures are `make bench`'s.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, serveDist, launchBrowser, analysed } from './harness.mjs';

const DUMP = readFileSync(join(ROOT, 'tests/fixtures/split/dump-8.json'), 'utf8');

/** A `kubectl get -A -o json` List over the 4 MB from which it is read in parts: the 8-Pod dump's
 * items ten times, each copy's names and uids its own, printed as kubectl prints it (4 spaces). */
function bigList() {
  const list = JSON.parse(DUMP);
  const items = [];
  for (let k = 0; k < 10; k++) {
    for (const item of list.items) {
      const copy = structuredClone(item);
      copy.metadata.name += `-${k}`;
      if (copy.metadata.uid) copy.metadata.uid += `-${k}`;
      items.push(copy);
    }
  }
  return `${JSON.stringify({ ...list, items }, null, 4)}\n`;
}

const BIG = bigList();

let server;
let browser;

before(async () => {
  server = await serveDist();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** The big List dropped on the app opened with `query`: the report exported as JSON, the worker's
 * steps, and the page's errors. */
async function reportWith(t, query) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  t.after(() => context.close());
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}${query}`, { waitUntil: 'load' });
  await page.locator('.finding').first().waitFor();
  await page.getByRole('button', { name: 'Clear all' }).click();
  await analysed(page);
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'big.json'));
    document.querySelector('.drop-zone').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, BIG);
  await page.locator('.input-row .source', { hasText: 'big.json' }).first().waitFor({ timeout: 60_000 });
  await analysed(page);
  const steps = await page.locator('.analysis-time').getAttribute('data-steps');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.export-json').click()]);
  const report = JSON.parse(readFileSync(await download.path(), 'utf8'));
  // When it was exported: the one field that differs from one export to the next.
  assert.match(report.exported_at, /^\d{4}-\d\d-\d\dT/);
  delete report.exported_at;
  return { report, steps, errors };
}

test('a big List read by two or four workers gives the report one worker gives', async (t) => {
  assert.ok(BIG.length > 4 * 1024 * 1024, `${BIG.length} bytes: over the threshold`);
  const one = await reportWith(t, '?readers=1');
  assert.match(one.steps, /^files=\d+ reading=\d+ relating=/, 'one worker reads it whole');
  assert.ok(one.report.findings.length > 0, 'the dump has findings');
  assert.equal(one.report.inputs[0].format, 'json-list');
  assert.equal(one.report.counts.Pod, 80);
  // Reading in parts is opt-in: on 2 cores it was slower than one worker (README, "Benchmarks").
  const plain = await reportWith(t, '');
  assert.match(plain.steps, /^files=\d+ reading=\d+ relating=/, 'by default one worker reads it');
  assert.deepEqual(plain.report, one.report);
  for (const readers of [2, 4]) {
    const got = await reportWith(t, `?readers=${readers}`);
    const reading = ['post', 'check', 'own', 'wait', 'merge'].map((s) => `reading-${readers}\\.${s}=\\d+`).join(' ');
    assert.match(got.steps, new RegExp(`^files=\\d+ ${reading} relating=`), `${readers} workers read it`);
    assert.deepEqual(got.report, one.report, `${readers} workers: the same report`);
    assert.deepEqual(got.errors, []);
  }
});

test('when a reader fails, the worker reads the List itself and the report is the same', async (t) => {
  const one = await reportWith(t, '?readers=1');
  const failed = await reportWith(t, '?readers=2&readers-fail=1');
  // The attempt's time is its own step; then the whole reading, as with one worker.
  assert.match(failed.steps, /^files=\d+ parts=\d+ reading=\d+ relating=/);
  assert.deepEqual(failed.report, one.report);
  assert.deepEqual(failed.errors, [], 'the reader\'s error does not reach the page');
});
