// The installable offline app and the exports: a service worker keeps the app's own files (and only
// those), so with the server gone and the network off the page still loads and analyses a paste;
// exports are files the browser writes, never requests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, DIST, serveDist, launchBrowser, recordRequests, analysed, WORKER_FILES } from './harness.mjs';

const X509_PODS = readFileSync(join(ROOT, 'tests/fixtures/browser/x509-pods.json'), 'utf8');

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

test('installed once, the app opens and analyses with the server gone and the network off', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url, { waitUntil: 'load' });
  await page.locator('.finding').first().waitFor();
  // The service worker is active and has kept the page, its script, its wasm and its styles.
  const cached = await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    for (let i = 0; i < 100; i++) {
      const keys = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) keys.push(request.url);
      }
      if (keys.filter((k) => k.endsWith('.wasm')).length >= 2) return keys; // the app's and the engine worker's
      await new Promise((r) => setTimeout(r, 100));
    }
    return [];
  });
  const files = new Set(readdirSync(DIST));
  assert.ok(cached.some((k) => k.endsWith('.wasm')) && cached.some((k) => k.endsWith('.js')), `${cached}`);
  // The engine worker's files too, though the page has not loaded them yet (it loads them on its first
  // analysis, which here happens offline).
  for (const file of WORKER_FILES) assert.ok(cached.includes(server.url + file), `${file} is kept: ${cached}`);
  for (const url of cached) {
    assert.ok(url.startsWith(server.url), `only this app's files are kept: ${url}`);
    const name = url.slice(server.url.length);
    assert.ok(name === '' || files.has(name), `a file of the app: ${url}`);
  }
  // No server, no network: a reload still gives a working app.
  await server.close();
  await context.setOffline(true);
  const foreign = recordRequests(page, new URL(server.url).origin);
  await page.reload({ waitUntil: 'load' });
  await page.locator('#paste').waitFor();
  await page.locator('#paste').fill(X509_PODS);
  await analysed(page);
  await page.locator('.finding[data-rule="image-pull-failed"]').first().waitFor();
  assert.match(await page.locator('.finding').first().textContent(), /x509|certificate/);
  assert.deepEqual(foreign.problems().filter((p) => p.startsWith('foreign')), [], 'nothing leaves the page');
  // The paste never became a request or a cache entry.
  const after = await page.evaluate(async () => {
    const keys = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) keys.push(request.url);
    }
    return keys;
  });
  assert.deepEqual(after.filter((k) => !cached.includes(k)), [], 'nothing new was cached');
  assert.deepEqual(errors, []);
  await context.close();
  server = await serveDist(); // for the next test
});

test('exports are files written by the browser: Markdown, HTML with no script, and the JSON report', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const recorder = recordRequests(page, new URL(server.url).origin);
  await page.goto(`${server.url}#sample=readiness`, { waitUntil: 'load' });
  await page.locator('.finding').first().waitFor();
  recorder.markLoaded();
  const save = async (button) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(button).click()]);
    return { name: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
  };
  const md = await save('.export-md');
  // Named after the incident: the diagnosis's object and the capture date.
  assert.match(md.name, /^faultline-[a-z0-9.-]+-\d{4}-\d{2}-\d{2}\.md$/);
  assert.notEqual(md.name, 'faultline-diagnosis.md');
  // Under the title: when the input was captured, when it was exported, by which version, and each
  // input by name and SHA-256 (what `faultline verify` checks).
  assert.match(md.text, /^# Faultline diagnosis\n\nCaptured: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC .+  \nExported: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC · Faultline \d+\.\d+\.\d+  \nInputs \(SHA-256\): .+ [0-9a-f]{64}\n\n\*\*Fault boundary:\*\* `readiness-endpoints`/);
  assert.match(md.text, /## 1\.1\. warning `readiness-probe-failing`/, 'symptoms numbered under their cause');
  const html = await save('.export-html');
  assert.ok(html.text.startsWith('<!doctype html>') && !/<script/i.test(html.text), 'no script');
  const json = JSON.parse((await save('.export-json')).text);
  assert.equal(json.findings[0].rule, 'service-endpoints-not-serving');
  assert.equal(json.redacted, undefined);
  assert.match(json.exported_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  assert.match(json.faultline_version, /^\d+\.\d+\.\d+$/);
  assert.equal(json.lang, 'en');
  assert.ok(json.inputs.length > 0 && json.inputs.every((i) => /^[0-9a-f]{64}$/.test(i.sha256)), JSON.stringify(json.inputs));
  assert.ok(json.capture.time && json.capture.basis, JSON.stringify(json.capture));
  assert.match(html.text, /<p class="stamp">Captured: .+ UTC .+<br>Exported: .+ UTC · Faultline .+<br>Inputs \(SHA-256\): .+ [0-9a-f]{64}<\/p>/);
  // The HTML report opens on its own with no request at all.
  const report = await context.newPage();
  const requests = [];
  report.on('request', (r) => requests.push(r.url()));
  await report.setContent(html.text, { waitUntil: 'load' });
  assert.match(await report.locator('h1').textContent(), /Faultline diagnosis/);
  assert.deepEqual(requests, []);
  assert.deepEqual(recorder.problems(), [], 'exporting made no request');
  await context.close();
});
