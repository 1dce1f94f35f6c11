// The rules page: generated from the rules' own documentation, each rule with a link that opens a
// sample making it fire (docs companion). Checked for every rule, in the built app.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, serveDist, launchBrowser, recordRequests, screenshot } from './harness.mjs';

// The rules, as the fixture folders name them (one folder per rule, checked by the Rust tests).
const RULE_IDS = readdirSync(join(ROOT, 'tests/fixtures/rules')).sort();

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

test('every rule is on the rules page, documented, with a sample link that makes it fire', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const recorder = recordRequests(page, new URL(server.url).origin);
  await page.goto(`${server.url}#view=rules`, { waitUntil: 'load' });
  await page.locator('.rules-page').waitFor();
  recorder.markLoaded();
  const listed = await page.locator('.rules-page article.rule').evaluateAll((els) => els.map((e) => e.dataset.rule).sort());
  assert.deepEqual(listed, RULE_IDS);
  assert.equal(await page.locator('.rules-page .rule-group').count(), 8, 'the eight boundaries');
  await screenshot(page, 'rules-page');
  // It fits the window: no sideways scrolling, even with long examples.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scroll');
  for (const rule of RULE_IDS) {
    const article = page.locator(`article.rule[data-rule="${rule}"]`);
    assert.equal(await article.locator('section h5').count(), 7, `${rule}: every doc section`);
    await article.locator('a.open-sample').click();
    await page.locator(`.finding[data-rule="${rule}"]`).first().waitFor({ timeout: 5000 });
    assert.match(page.url(), new RegExp(`#sample=rule-${rule}&view=findings$`));
    await page.goto(`${server.url}#view=rules`);
    await page.locator('.rules-page').waitFor();
  }
  // In Chinese the documentation is the Chinese one.
  await page.getByRole('button', { name: '中文' }).click();
  const zh = await page.locator('article.rule[data-rule="image-pull-failed"] section h5').first().textContent();
  assert.equal(zh, '检测内容');
  assert.deepEqual(errors, []);
  assert.deepEqual(recorder.problems(), [], 'following the links fetched nothing');
  await context.close();
});
