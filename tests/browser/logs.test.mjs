// Issue 44: an application's log as evidence, in the built app. The `dependency` sample (Pods
// ready, a Service, a ConfigMap and the application's log): the Findings view shows the log's
// lines with their input line and the objects they are tied to, and the Timeline places the log's
// failing lines at their own times, in both languages. Screenshots of each state are written to
// tests/browser/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, serveDist, launchBrowser, recordRequests, analysed, screenshot } from './harness.mjs';

let server;
let browser;
let report;

before(async () => {
  const out = execFileSync('cargo', ['run', '-q', '--locked', '--manifest-path', join(ROOT, 'Cargo.toml'), '-p', 'faultline-cli',
    '--', 'analyze', '--format', 'json', 'input.txt'], { cwd: join(ROOT, 'static/samples/dependency'), encoding: 'utf8' });
  report = JSON.parse(out);
  server = await serveDist();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(t, hash, locale) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const recorder = recordRequests(page, new URL(server.url).origin);
  await page.goto(server.url + hash, { waitUntil: 'load' });
  await page.locator('.view').waitFor();
  recorder.markLoaded();
  t.after(async () => {
    assert.deepEqual(recorder.problems(), [], 'no foreign request and no request after load');
    assert.deepEqual(pageErrors, [], 'no uncaught error in the page');
    await context.close();
  });
  return page;
}

for (const [locale, words] of [
  ['en-US', { source: 'log', calls: 'says its calls to postgresql at orders-db:5433 fail' }],
  ['zh-CN', { source: '日志', calls: '的调用失败' }],
]) {
  const lang = locale.slice(0, 2);
  test(`${lang}: the log's lines are evidence with their line, tied to the Service and ConfigMap`, async (t) => {
    const root = report.findings[0];
    assert.equal(root.rule, 'dependency-failing');
    const page = await open(t, '#sample=dependency', locale);
    await analysed(page);
    const card = page.locator('#finding-1');
    assert.match(await card.innerText(), new RegExp(words.calls));
    const where = await card.locator('.evidence .where').allTextContents();
    // Every evidence line of the engine's finding, in its order: the log's first and last failing
    // lines, the Service's name and port, the ConfigMap's key.
    assert.deepEqual(where, root.evidence.map((e) => `${e.source}:${e.line}`));
    const values = await card.locator('.evidence .value').allTextContents();
    assert.ok(values[0].startsWith('Connection to orders-db:5433 refused.'), values[0]);
    assert.ok(values.includes('jdbc:postgresql://orders-db:5433/orders'), values.join(' | '));
    await screenshot(page, `logs-findings-${lang}`);
  });

  test(`${lang}: the timeline places the log's failing lines at their times`, async (t) => {
    const page = await open(t, '#sample=dependency&view=timeline', locale);
    await analysed(page);
    const logged = report.timeline.filter((e) => e.source === 'log');
    assert.equal(logged.length, 4, 'three refusals and the wait for a pooled connection');
    const rows = page.locator('.tl-row.log');
    assert.equal(await rows.count(), logged.length);
    const sources = await rows.locator('.tl-source').allTextContents();
    assert.ok(sources.every((s) => s === words.source), sources.join(','));
    const times = await rows.locator('.tl-time').allTextContents();
    // Newest first; each shows its time of day as the log wrote it.
    assert.match(times[0], /10:04:02/);
    assert.match(times.at(-1), /10:01:19/);
    await screenshot(page, `logs-timeline-${lang}`);
  });
}

// Issue 40, point 5: a journal pasted (minikube#9122, verbatim) dates itself: its lines carry no
// year, `-- Logs begin at …` gives it; the kubelet's fatal line is on the timeline at its time and
// the header's `end at` is the capture moment, in both languages.
const JOURNAL = readFileSync(join(ROOT, 'tests/fixtures/timeline/journal-minikube-bootstrap-kubeconfig.txt'), 'utf8');
for (const [locale, words] of [
  ['en-US', { source: 'log', capture: /2020-08-30 17:23:29/ }],
  ['zh-CN', { source: '日志', capture: /2020-08-30 17:23:29/ }],
]) {
  const lang = locale.slice(0, 2);
  test(`${lang}: a pasted journal's known lines are on the timeline at their time, and its end is the capture`, async (t) => {
    const page = await open(t, '#view=timeline', locale);
    await page.locator('#paste').fill(JOURNAL);
    await page.locator('.tl-row.log').first().waitFor();
    await analysed(page);
    const rows = page.locator('.tl-row.log');
    assert.equal(await rows.count(), 1);
    assert.equal(await rows.locator('.tl-source').textContent(), words.source);
    assert.match(await rows.locator('.tl-time').textContent(), /16:59:57/);
    assert.match(await rows.textContent(), /failed to run Kubelet: unable to load bootstrap kubeconfig/);
    const body = await page.locator('.view').innerText();
    assert.match(body, words.capture);
    assert.ok(!body.includes('no absolute time') && !body.includes('没有绝对时间'), body.slice(0, 400));
    await screenshot(page, `logs-journal-timeline-${lang}`);
  });
}
