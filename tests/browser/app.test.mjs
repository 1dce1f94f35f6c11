// End-to-end: the built app (dist/) in headless Chromium. Every test records every request and fails
// on any request to another origin or made after the page loaded.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, serveDist, launchBrowser, recordRequests, screenshot } from './harness.mjs';

const X509_PODS = readFileSync(join(ROOT, 'tests/fixtures/browser/x509-pods.json'), 'utf8');
const SAMPLE_POD = readFileSync(join(ROOT, 'static/samples/image-pull/pod.yaml'), 'utf8');

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

/** Opens the app in a fresh context; resolves once the first diagnosis is on screen. */
async function openApp(t) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const recorder = recordRequests(page, new URL(server.url).origin);
  await page.goto(server.url, { waitUntil: 'load' });
  await page.locator('.finding').first().waitFor();
  recorder.markLoaded();
  t.after(async () => {
    assert.deepEqual(recorder.problems(), [], 'no foreign request and no request after load');
    assert.deepEqual(pageErrors, [], 'no uncaught error in the page');
    await context.close();
  });
  return { page, recorder };
}

const findingTexts = (page) => page.locator('.finding').evaluateAll((cards) => cards.map((c) => ({
  rule: c.dataset.rule,
  boundary: c.dataset.boundary,
  subject: c.querySelector('.subject').textContent,
  summary: c.querySelector('.summary').textContent,
  evidence: [...c.querySelectorAll('.evidence li')].map((li) => li.textContent),
})));

test('opens with the built-in sample already diagnosed, loading only its own files', async (t) => {
  const { page, recorder } = await openApp(t);
  const [top, ...rest] = await findingTexts(page);
  assert.equal(rest.length, 0);
  assert.equal(top.rule, 'image-pull-failed');
  assert.equal(top.boundary, 'node-runtime');
  assert.equal(top.subject, 'Pod exp-runtime/tag-probe');
  assert.match(top.summary, /does not exist/);
  assert.ok(top.evidence.some((e) => e.startsWith('pod.yaml:111') && e.includes('ErrImagePull')), top.evidence.join('\n'));
  assert.ok(top.evidence.some((e) => e.startsWith('pod.yaml:34') && e.includes('lab-worker2')), top.evidence.join('\n'));
  assert.match(await page.locator('.headline').textContent(), /Node \/ container runtime/);
  // The events table is read too, and its rows are cited by line.
  assert.ok(top.evidence.some((e) => e.startsWith('events.txt:5') && e.includes('not found')), top.evidence.join('\n'));
  const inputs = await page.locator('.input-row').allTextContents();
  assert.equal(inputs.length, 2);
  assert.ok(inputs.some((r) => r.includes('pod.yaml') && r.includes('yaml') && r.includes('1 document · Pod 1')), inputs.join('\n'));
  assert.ok(inputs.some((r) => r.includes('events.txt') && r.includes('events-table') && r.includes('Event 6')), inputs.join('\n'));
  assert.equal(await page.locator('.input-error').count(), 0, 'the sample reads without problems');
  // This browser runs WebAssembly SIMD: static/support.js says nothing.
  assert.equal(await page.locator('.unsupported').count(), 0);
  assert.equal(await page.locator('html').getAttribute('data-unsupported'), null);
  // The page loaded its wasm from its own origin, under the sub-path (relative URLs).
  assert.ok(recorder.requests.some((r) => r.url.startsWith(server.url) && r.url.endsWith('.wasm')));
  await screenshot(page, 'sample-image-pull');
  // The rule's own documentation is one click away, rendered as text.
  const toggle = page.getByRole('button', { name: 'About the rule image-pull-failed' });
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  await page.locator('.rule-docs h5').first().waitFor();
  const titles = await page.locator('.rule-docs h5').allTextContents();
  assert.deepEqual(titles, ['What it finds', 'Why it matters', 'Evidence', 'Fault boundary',
    'What this evidence cannot establish', 'Next evidence to collect', 'Example']);
  await screenshot(page, 'sample-image-pull-rule-docs');
  // Keyboard: the same button closes them again.
  await toggle.focus();
  await page.keyboard.press('Enter');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.locator('.rule-docs h5').count(), 0);
});

test('a pasted incident replaces the sample and is diagnosed', async (t) => {
  const { page } = await openApp(t);
  await page.getByRole('button', { name: 'Clear all' }).click();
  await page.locator('.finding').waitFor({ state: 'detached' });
  assert.match(await page.locator('.headline').textContent(), /Paste or drop/);
  await page.locator('#paste').fill(X509_PODS);
  await page.locator('.finding').waitFor();
  const findings = await findingTexts(page);
  assert.equal(findings.length, 1);
  assert.equal(findings[0].subject, 'Pod message-image-pull-fail/no-image-deployment-849c4c4958-rxqmt');
  assert.match(findings[0].summary, /x509/);
  assert.ok(findings[0].evidence.every((e) => e.startsWith('paste:')), findings[0].evidence.join('\n'));
  assert.equal(await page.locator('.input-row .format').textContent(), 'json-list');
  await screenshot(page, 'pasted-x509');
});

test('files dropped together are analysed together, each cited by its name', async (t) => {
  const { page } = await openApp(t);
  await page.getByRole('button', { name: 'Clear all' }).click();
  await page.locator('.finding').waitFor({ state: 'detached' });
  const dataTransfer = await page.evaluateHandle(([a, b]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([a], 'pod.yaml', { type: 'application/yaml' }));
    dt.items.add(new File([b], 'pods.json', { type: 'application/json' }));
    return dt;
  }, [SAMPLE_POD, X509_PODS]);
  await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer });
  await page.waitForFunction(() => document.querySelectorAll('.finding').length === 2);
  const subjects = (await findingTexts(page)).map((f) => f.subject).sort();
  assert.deepEqual(subjects, [
    'Pod exp-runtime/tag-probe',
    'Pod message-image-pull-fail/no-image-deployment-849c4c4958-rxqmt',
  ]);
  const sources = await page.locator('.input-row .source').allTextContents();
  assert.deepEqual(sources.sort(), ['pod.yaml', 'pods.json']);
});

test('the file picker takes several files at once', async (t) => {
  const { page } = await openApp(t);
  await page.getByRole('button', { name: 'Clear all' }).click();
  await page.getByLabel('Choose files to analyse').setInputFiles([
    { name: 'a.yaml', mimeType: 'application/yaml', buffer: Buffer.from(SAMPLE_POD) },
    { name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(X509_PODS) },
  ]);
  await page.waitForFunction(() => document.querySelectorAll('.finding').length === 2);
  const sources = await page.locator('.input-row .source').allTextContents();
  assert.deepEqual(sources.sort(), ['a.yaml', 'b.json']);
});

test('a picked folder (a support bundle) is read with each file named by its path', async (t) => {
  const { page } = await openApp(t);
  await page.getByRole('button', { name: 'Clear all' }).click();
  await page.locator('input[webkitdirectory]').setInputFiles(join(ROOT, 'tests/fixtures/layouts/support-bundle'));
  await page.waitForFunction(() => document.querySelectorAll('.input-row').length === 4);
  const rows = await page.locator('.input-row').allTextContents();
  assert.ok(rows.some((r) => r.includes('support-bundle/cluster-resources/pods/shop.json') && r.includes('json-list')), rows.join('\n'));
  assert.ok(rows.some((r) => r.includes('web.log') && r.includes('container-log')), rows.join('\n'));
  const [finding] = await findingTexts(page);
  assert.equal(finding.subject, 'Pod shop/web-6d8f7b9c4-q2w8x');
  assert.ok(finding.evidence.some((e) => e.startsWith('support-bundle/cluster-resources/events/shop.json:')), finding.evidence.join('\n'));
  assert.equal(await page.locator('.input-error').count(), 0);
  await screenshot(page, 'folder-support-bundle');
});

test('bad input gets an error with its position; the text stays as typed and replaces the sample', async (t) => {
  const { page } = await openApp(t);
  const broken = 'apiVersion: v1\nkind: Pod\nmetadata: [unclosed\n';
  await page.locator('#paste').fill(broken);
  const error = page.locator('.input-error', { hasText: 'paste:' });
  await error.waitFor();
  assert.match(await error.locator('.where').textContent(), /^paste:\d+:\d+$/);
  assert.match(await error.locator('.message').textContent(), /YAML syntax error/);
  assert.equal(await page.locator('#paste').inputValue(), broken);
  // The user's first paste replaces the sample (issue 25): its files are gone, none of its findings stay.
  assert.deepEqual(await page.locator('.input-row .source').allTextContents(), ['paste']);
  assert.equal(await page.locator('.finding[data-rule="image-pull-failed"]').count(), 0);
  await screenshot(page, 'bad-input');
});

// A describe fragment pasted without its object (the first nine lines of a real paste,
// ../shared/corpus/wild/10, verbatim: a node's `Allocated resources:` table) is not called healthy:
// the headline says the input could not all be read and where; the inputs list counts the lines not
// read, and the input viewer shades them.
test('a paste that cannot all be read is inconclusive, with its unread lines counted and shaded', async (t) => {
  const { page } = await openApp(t);
  await page.getByRole('button', { name: 'Clear all' }).click();
  await page.locator('.finding').waitFor({ state: 'detached' });
  const paste = readFileSync(join(ROOT, '../shared/corpus/wild/10-node-diskpressure-describe-node-fragment/input.txt'), 'utf8');
  const fragment = paste.split('\n').slice(0, 9).join('\n') + '\n';
  await page.locator('#paste').fill(fragment);
  const headline = page.locator('.headline.verdict');
  await headline.waitFor();
  assert.match(await headline.textContent(), /^Inconclusive: Faultline found nothing it could judge, but could not read all of it/);
  assert.match(await headline.textContent(), /paste, line 3: .*paste, lines 5–9/);
  assert.doesNotMatch(await headline.textContent(), /nothing in it points to a fault/);
  // Its code spans (`Name:`, `kubectl describe`) are shown as code, not as backticks.
  assert.ok(await headline.locator('code').count() > 0);
  assert.doesNotMatch(await headline.textContent(), /`/);
  assert.doesNotMatch((await page.locator('.unread-list').textContent()), /`/);
  const count = page.locator('.input-row .unread-count');
  assert.equal(await count.textContent(), '6 lines not read');
  await page.locator('.input-row .source').first().click();
  await page.locator('.input-viewer .line.unread').first().waitFor();
  const shaded = await page.locator('.input-viewer .line.unread').evaluateAll((lines) => lines.map((l) => Number(l.dataset.line)));
  assert.deepEqual(shaded, [3, 5, 6, 7, 8, 9]);
  assert.equal(await page.locator('.input-viewer .line[data-line="1"]').getAttribute('class'), 'line highlight');
  await screenshot(page, 'inconclusive-unread');
  // In Chinese, the same verdict in Chinese.
  await page.getByRole('button', { name: '中文' }).click();
  await page.locator('.headline.verdict', { hasText: '无法判断' }).waitFor();
  assert.equal(await count.textContent(), '6 行未读取');
  await screenshot(page, 'inconclusive-unread-zh');
});

// The request check above must be able to fail: a page that fetches elsewhere after load is caught.
test('the request recorder catches a foreign request made after load', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const recorder = recordRequests(page, new URL(server.url).origin);
  await page.goto(server.url, { waitUntil: 'load' });
  await page.locator('.finding').first().waitFor();
  recorder.markLoaded();
  // An image, not fetch(): the CSP refuses a foreign fetch before it is a request at all, while a
  // blocked image still shows up as one (privacy.test.mjs checks the CSP itself).
  await page.evaluate(() => { new Image().src = 'http://127.0.0.2:9/exfiltrate'; });
  await expectEventually(() => recorder.problems().length === 1);
  assert.match(recorder.problems()[0], /^after load: http:\/\/127\.0\.0\.2:9\/exfiltrate$/);
  await context.close();
});

async function expectEventually(check, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    assert.ok(Date.now() < end, 'condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('a browser without WebAssembly SIMD is told so on the page, in its language', async () => {
  for (const [locale, words] of [['en-GB', /cannot run in this browser: it needs WebAssembly with SIMD.*Safari 16\.4/],
    ['zh-CN', /无法在此浏览器中运行.*SIMD/]]) {
    const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    // Such a browser fails to compile any module with a SIMD instruction, the app's among them.
    await page.addInitScript(() => {
      const refuse = () => Promise.reject(new WebAssembly.CompileError('SIMD unsupported (simulated)'));
      WebAssembly.validate = () => false;
      WebAssembly.compile = refuse;
      WebAssembly.compileStreaming = refuse;
      WebAssembly.instantiate = refuse;
      WebAssembly.instantiateStreaming = refuse;
    });
    await page.goto(server.url, { waitUntil: 'load' });
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.textContent(), words);
    assert.equal(await page.locator('html').getAttribute('data-unsupported'), 'wasm-simd');
    assert.equal(await page.locator('.finding').count(), 0, 'the app did not start');
    // The page's uncaught error may be reported after the alert is drawn (CI saw it late once).
    for (let waited = 0; !pageErrors.some((e) => e.includes('SIMD unsupported')) && waited < 5000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(pageErrors.some((e) => e.includes('SIMD unsupported')), pageErrors.join('\n'));
    await screenshot(page, `unsupported-browser-${locale}`);
    await context.close();
  }
});

test('the theme follows the system setting (dark)', async () => {
  const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const recorder = recordRequests(page, new URL(server.url).origin);
  await page.goto(server.url, { waitUntil: 'load' });
  await page.locator('.finding').first().waitFor();
  recorder.markLoaded();
  const [bg, text] = await page.evaluate(() => {
    const style = getComputedStyle(document.body);
    return [style.backgroundColor, style.color];
  });
  const luminance = (rgb) => rgb.match(/\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b, 0) / 3;
  assert.ok(luminance(bg) < 60 && luminance(text) > 180, `dark background ${bg}, light text ${text}`);
  await screenshot(page, 'sample-image-pull-dark');
  assert.deepEqual(recorder.problems(), []);
  await context.close();
});
