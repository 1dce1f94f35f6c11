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
  await page.locator('.rules-page article.rule').first().waitFor();
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
    await page.locator('.rules-page article.rule').first().waitFor();
  }
  // In Chinese the documentation is the Chinese one.
  await page.getByRole('button', { name: '中文' }).click();
  const zh = await page.locator('article.rule[data-rule="image-pull-failed"] section h5').first().textContent();
  assert.equal(zh, '检测内容');
  assert.deepEqual(errors, []);
  assert.deepEqual(recorder.problems(), [], 'following the links fetched nothing');
  await context.close();
});

test('the rules page opens with an index: every rule by boundary, each a click from its article and back', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}#view=rules`, { waitUntil: 'load' });
  const index = page.locator('.rules-index');
  await index.waitFor();
  // On the first screen, in boundary order, with every rule once.
  assert.ok((await index.boundingBox()).y < 900, 'the index starts on the first screen');
  assert.equal(await index.locator('.index-group').count(), 8);
  const listed = await index.locator('.rule-jump').evaluateAll((els) => els.map((e) => e.dataset.rule).sort());
  assert.deepEqual(listed, RULE_IDS);
  // Each entry says what its rule detects: the first sentence of its documentation.
  const summaries = await index.locator('li li').evaluateAll((lis) => lis.map((li) => li.querySelector('.muted').textContent.trim()));
  assert.ok(summaries.every((s) => s.length > 10), JSON.stringify(summaries.filter((s) => s.length <= 10)));
  const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  await screenshot(page, 'rules-index');

  // The last rule's entry brings its article into view, its heading focused (keyboard users too).
  const last = RULE_IDS.at(-1);
  await index.locator(`.rule-jump[data-rule="${last}"]`).focus();
  await page.keyboard.press('Enter');
  const heading = page.locator(`article.rule[data-rule="${last}"] h4`);
  await page.waitForFunction((rule) => document.activeElement?.closest('article')?.dataset.rule === rule, last);
  const box = await heading.boundingBox();
  assert.ok(box.y >= 0 && box.y < 900, `the article's heading is in view (y ${box.y})`);
  assert.ok(await page.evaluate(() => window.scrollY) > 1000, 'the page scrolled down to it');
  // And back: the index in view again.
  await page.locator(`article.rule[data-rule="${last}"] .to-index`).click();
  const back = await index.boundingBox();
  assert.ok(back.y > -50 && back.y < 900, `the index is in view again (y ${back.y})`);
  assert.ok(pageHeight > 10_000);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the rules\' documentation is not in the page: the engine\'s worker sends it when first shown', async () => {
  // No offline cache: a worker script the service worker serves from its cache never reaches the
  // route that holds it back below (it did once CI's machine was busy enough for the cache to win).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // No worker: the page alone has no documentation to show, only that it is on its way.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/engine-worker.js', async (route) => { await held; await route.continue(); });
  await page.goto(`${server.url}#view=rules`, { waitUntil: 'load' });
  const loading = page.locator('.rules-page .docs-loading');
  await loading.waitFor();
  assert.equal(await page.locator('.rules-page article.rule').count(), 0);
  await page.getByRole('tab', { name: 'Findings' }).click();
  await page.locator('.rule-docs-toggle').first().click();
  await page.locator('.rule-docs .docs-loading').waitFor();
  assert.equal(await page.locator('.rule-docs h5').count(), 0);
  await screenshot(page, 'rule-docs-loading');
  // The worker starts: the open card's documentation arrives, and the rules page has it all.
  release();
  await page.locator('.rule-docs h5').first().waitFor();
  assert.equal(await page.locator('.rule-docs .docs-loading').count(), 0);
  await page.getByRole('tab', { name: 'Rules' }).click();
  await page.locator('.rules-page article.rule').first().waitFor();
  assert.equal(await page.locator('.rules-page article.rule').count(), RULE_IDS.length);
  assert.deepEqual(errors, []);
  await context.close();
});
