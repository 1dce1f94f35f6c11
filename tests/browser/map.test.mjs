// End-to-end: the object map of every built-in sample, checked against the engine's own report for
// the same files (the native CLI's `--format json`): the objects drawn, the lit ones, the relations,
// the endpoints and their conditions, the five-facts panel, the keyboard, Chinese, a large input, and
// screenshots in both themes and both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, serveDist, launchBrowser, recordRequests, screenshot } from './harness.mjs';

const SAMPLES = {
  'node-label': ['input.txt', 'nodes.txt'],
  'image-pull': ['pod.yaml', 'events.txt'],
  'readiness': ['objects.yaml', 'events.txt', 'requests.txt'],
  'publish-not-ready': ['objects.json'],
  'quota-403': ['input.txt'],
  'dependency': ['input.txt'],
  'healthy': ['objects.yaml', 'events.txt'],
};
const DRAWN = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'ReplicaSet', 'Pod', 'Node',
  'Service', 'EndpointSlice', 'Endpoints']);
const RANK = { info: 0, warning: 1, error: 2 };

let server;
let browser;
const reports = {};

function engineReport(id) {
  const out = execFileSync('cargo', ['run', '-q', '--locked', '-p', 'faultline-cli', '--', 'analyze', '--format', 'json',
    ...SAMPLES[id]], { cwd: join(ROOT, 'static/samples', id), encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(out);
}

before(async () => {
  for (const id of Object.keys(SAMPLES)) reports[id] = engineReport(id);
  server = await serveDist();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(t, hash, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
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

const refOf = (o) => `${o.ref.kind}/${o.ref.namespace ?? ''}/${o.ref.name}`;
const sameRef = (a, b) => a.kind === b.kind && (a.namespace ?? null) === (b.namespace ?? null) && a.name === b.name;

for (const id of Object.keys(SAMPLES)) {
  test(`sample ${id}: the object map draws the report's graph`, async (t) => {
    const report = reports[id];
    const page = await open(t, `#sample=${id}&view=map`);
    await page.locator('.view[data-view="map"]').waitFor();
    assert.equal(await page.locator('.view-tab[aria-selected="true"]').getAttribute('data-view'), 'map');
    const boxes = await page.locator('.map-box.object').evaluateAll((bs) => bs.map((b) => ({
      index: Number(b.dataset.index), ref: b.dataset.ref, severity: b.dataset.severity ?? null,
      missing: b.dataset.missing === 'true' })));
    // Every box is the report's object at its index.
    for (const b of boxes) {
      const o = report.objects[b.index];
      assert.ok(o, `${id}: object ${b.index}`);
      assert.equal(b.ref, refOf(o));
      assert.equal(b.missing, Boolean(o.missing), `${id}: ${b.ref} missing`);
    }
    // Every object of a drawn kind is drawn (the samples are small: nothing is collapsed)...
    const drawn = new Set(boxes.map((b) => b.index));
    report.objects.forEach((o, i) => {
      if (DRAWN.has(o.ref.kind)) assert.ok(drawn.has(i), `${id}: ${refOf(o)} is drawn`);
    });
    // ...and the others are listed.
    const others = await page.locator('.map-other').evaluateAll((bs) => bs.map((b) => Number(b.dataset.index)));
    assert.deepEqual(others.sort(), report.objects.map((o, i) => [o, i]).filter(([o]) => !DRAWN.has(o.ref.kind))
      .map(([, i]) => i).sort());
    // Lit: exactly the findings' subjects, by their worst severity.
    for (const b of boxes) {
      const about = report.findings.filter((f) => sameRef(f.subject, report.objects[b.index].ref));
      const worst = about.reduce((w, f) => (w === null || RANK[f.severity] > RANK[w] ? f.severity : w), null);
      assert.equal(b.severity, worst, `${id}: ${b.ref} lit by ${worst}`);
    }
    for (const f of report.findings) {
      const i = report.objects.findIndex((o) => sameRef(o.ref, f.subject));
      if (i >= 0 && DRAWN.has(f.subject.kind)) {
        assert.ok(boxes.some((b) => b.index === i && b.severity), `${id}: the subject of ${f.rule} is lit`);
      }
    }
    // Relations: each line is one of the report's, or an endpoint's target.
    const links = await page.locator('.map-link[data-rel]').evaluateAll((ls) => ls.map((l) => ({
      rel: l.dataset.rel, from: l.dataset.from === undefined ? null : Number(l.dataset.from),
      to: l.dataset.to === undefined ? null : Number(l.dataset.to), inferred: l.classList.contains('inferred') })));
    for (const l of links.filter((l) => ['owned-by', 'runs-on', 'endpoints-of', 'selects'].includes(l.rel))) {
      assert.ok(report.relations.some((r) => r.kind === l.rel
        && ((r.from === l.from && r.to === l.to) || (r.from === l.to && r.to === l.from))), `${id}: ${JSON.stringify(l)}`);
    }
    // (An EndpointSlice owned by its Service is drawn as the slice's endpoints-of line.)
    const chain = (kind) => DRAWN.has(kind) && !['Service', 'EndpointSlice', 'Endpoints'].includes(kind);
    for (const r of report.relations.filter((r) => ['owned-by', 'runs-on'].includes(r.kind)
      && chain(report.objects[r.from].ref.kind) && chain(report.objects[r.to].ref.kind))) {
      assert.ok(links.some((l) => l.rel === r.kind && l.from === r.to && l.to === r.from)
        || links.some((l) => l.rel === r.kind && l.from === r.from && l.to === r.to), `${id}: relation ${JSON.stringify(r)} drawn`);
    }
    // Endpoints: every endpoint of every slice, with its conditions, and a line to its target.
    const endpoints = await page.locator('.map-box.endpoint').evaluateAll((es) => es.map((e) => ({
      slice: Number(e.dataset.slice), index: Number(e.dataset.endpoint), ready: e.dataset.ready ?? null,
      serving: e.dataset.serving ?? null, terminating: e.dataset.terminating ?? null })));
    const expected = report.objects.flatMap((o, s) => (o.endpoints ?? []).map((e, i) => ({ s, i, e })));
    assert.equal(endpoints.length, expected.length, `${id}: endpoints`);
    for (const { s, i, e } of expected) {
      const drawnEndpoint = endpoints.find((d) => d.slice === s && d.index === i);
      assert.ok(drawnEndpoint, `${id}: endpoint ${s}/${i}`);
      for (const c of ['ready', 'serving', 'terminating']) {
        assert.equal(drawnEndpoint[c], e[c] === undefined ? null : String(e[c]), `${id}: ${c}`);
      }
      if (e.target !== undefined) {
        assert.ok(links.some((l) => l.rel === 'endpoint-is' && l.to === e.target && l.inferred === Boolean(e.inferred)),
          `${id}: endpoint ${s}/${i} to ${e.target}`);
      }
    }
    assert.equal(await page.evaluate(() => document.querySelectorAll('[style]').length), 0, 'no inline style');
  });
}

test('the five facts of a Service: the panel shows the report\'s, and evidence opens its line', async (t) => {
  const report = reports.readiness;
  const page = await open(t, '#sample=readiness&view=map');
  const service = report.objects.findIndex((o) => o.ref.kind === 'Service');
  await page.locator(`.map-box.object[data-index="${service}"]`).first().click();
  const rows = await page.locator('.map-details .facts-table tr.fact').evaluateAll((rs) => rs.map((r) => [r.dataset.fact, r.dataset.state]));
  assert.deepEqual(rows, report.objects[service].facts.map((f) => [f.fact, f.state]));
  assert.deepEqual(rows.map(([, s]) => s), ['yes', 'no', 'yes', 'no', 'no']);
  const texts = await page.locator('.map-details .facts-table .fact-state').allTextContents();
  assert.deepEqual(texts, ['yes', 'no', 'yes', 'no', 'no']);
  // The finding about it, as in the findings view.
  const rules = await page.locator('.map-details .part-finding').evaluateAll((ls) => ls.map((l) => l.dataset.rule));
  assert.deepEqual(rules, report.findings.filter((f) => f.subject.kind === 'Service').map((f) => f.rule));
  // The first evidence of "eligible for traffic" opens the input viewer at that line.
  const eligible = report.objects[service].facts.find((f) => f.fact === 'eligible-for-traffic').evidence[0];
  await page.locator('.map-details tr.fact[data-fact="eligible-for-traffic"] button.where').first().click();
  const line = page.locator('.input-viewer .line.highlight');
  await line.waitFor();
  assert.equal(await line.getAttribute('data-line'), String(eligible.line));
  assert.match(await line.textContent(), /ready: false/);
  // The viewer is docked over the page; Esc closes it, the focus back on the evidence link.
  await page.keyboard.press('Escape');
  await page.locator('.input-viewer').waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('where')), true);
  // Unknown is never shown as yes: a Pod without a Service's slice in the input.
  const pod = report.objects.findIndex((o) => o.ref.kind === 'Pod');
  await page.locator(`.map-box.object[data-index="${pod}"]`).first().click();
  const podRows = await page.locator('.map-details .facts-table tr.fact').evaluateAll((rs) => rs.map((r) => [r.dataset.fact, r.dataset.state]));
  assert.deepEqual(podRows, report.objects[pod].facts.map((f) => [f.fact, f.state]));
  // An object's own line.
  await page.locator('.map-details .map-read-at button.where').click();
  await page.locator(`.input-viewer .line.highlight[data-line="${report.objects[pod].at.line}"]`).waitFor();
});

test('the keyboard opens an object and moves between them', async (t) => {
  const report = reports.readiness;
  const page = await open(t, '#sample=readiness&view=map');
  const service = report.objects.findIndex((o) => o.ref.kind === 'Service');
  const box = page.locator(`.map-section[data-section="services"] .map-box.object[data-index="${service}"]`);
  await box.focus();
  await page.keyboard.press('Enter');
  await page.locator('.map-details .facts-table').waitFor();
  assert.equal(await box.getAttribute('aria-pressed'), 'true');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.kind), 'EndpointSlice');
  await page.keyboard.press('ArrowRight');
  assert.ok(await page.evaluate(() => document.activeElement.classList.contains('endpoint')));
  await page.keyboard.press(' ');
  await page.locator('.map-details[data-endpoint]').waitFor();
  assert.match(await page.locator('.map-details').textContent(), /ready=false/);
  // Tab reaches the boxes too, each with a label.
  const labels = await page.locator('.map-box[tabindex="0"]').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
  assert.ok(labels.length > 0 && labels.every((l) => l && l.length > 3), labels.join('\n'));
});

// Visible UI text outside report data (`translate="no"`), as in views.test.mjs.
const uiTexts = (page) => page.evaluate(() => {
  const out = [];
  const walker = document.createTreeWalker(document.querySelector('.view'), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const text = n.textContent.trim();
    if (!text || el.closest('[translate="no"], textarea, script, style, noscript, option, title')) continue;
    if (!el.checkVisibility()) continue;
    out.push(text);
  }
  return out;
});
// Names printed on keys and API fields, which Chinese text writes as they are.
const KEEP = new Set(['Tab', 'kubectl', 'Service', 'EndpointSlice', 'Pod', 'ownerReferences', 'targetRef', 'ready', 'serving',
  'terminating', 'true', 'false']);
const english = (texts) => texts.filter((s) => (s.match(/[A-Za-z][A-Za-z-]{2,}/g) ?? []).some((w) => !KEEP.has(w)));

test('the map in Chinese has no English left, with a Service\'s and an endpoint\'s panel open', async (t) => {
  const report = reports.readiness;
  const page = await open(t, '#sample=readiness&view=map', { locale: 'zh-CN' });
  assert.equal(await page.locator('.view-tab[data-view="map"]').textContent(), '对象关系图');
  const service = report.objects.findIndex((o) => o.ref.kind === 'Service');
  await page.locator(`.map-box.object[data-index="${service}"]`).first().click();
  assert.deepEqual(english(await uiTexts(page)), [], 'Service panel');
  assert.equal(await page.locator('.map-details .fact-state').first().textContent(), '是');
  await page.locator('.map-box.endpoint').first().click();
  assert.deepEqual(english(await uiTexts(page)), [], 'endpoint panel');
  await page.getByRole('button', { name: 'English' }).click();
  const texts = await uiTexts(page);
  assert.deepEqual(texts.filter((s) => /[\u4e00-\u9fff]/.test(s)), [], 'no Chinese after switching back');
});

test('a large input: Pods collapse per owner, failing first, expand on click, filter by namespace', async (t) => {
  const page = await open(t, '#sample=image-pull&view=map');
  await page.getByRole('button', { name: 'Clear all' }).click();
  const pods = 3000;
  const dataTransfer = await page.evaluateHandle((n) => {
    const items = ['apiVersion: v1', 'kind: List', 'items:',
      '- kind: Deployment\n  metadata: {name: web, namespace: shop}\n  spec: {replicas: 3000}\n  status: {replicas: 3000, readyReplicas: 2997}',
      '- kind: ReplicaSet\n  metadata:\n    name: web-7d9\n    namespace: shop\n    ownerReferences: [{kind: Deployment, name: web}]',
      '- kind: Pod\n  metadata: {name: lonely, namespace: other}\n  spec: {containers: []}\n  status: {phase: Running}'];
    for (let i = 0; i < n; i++) {
      const ready = i % 1000 === 17 ? 'False' : 'True';
      items.push(`- kind: Pod\n  metadata:\n    name: web-7d9-p${i}\n    namespace: shop\n    ownerReferences: [{kind: ReplicaSet, name: web-7d9}]\n  spec: {nodeName: n${i % 5}, containers: []}\n  status:\n    phase: Running\n    conditions: [{type: Ready, status: '${ready}'}]`);
    }
    const dt = new DataTransfer();
    dt.items.add(new File([items.join('\n') + '\n'], 'big.yaml'));
    return dt;
  }, pods);
  await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer });
  const group = page.locator('.map-section[data-section="workloads"] .map-box.group');
  await group.waitFor({ timeout: 120_000 });
  assert.equal(await group.getAttribute('data-hidden'), String(pods - 3));
  assert.match(await group.textContent(), /2997 more Pods/);
  const failing = await page.locator('.map-section[data-section="workloads"] .map-box.object[data-kind="Pod"]')
    .evaluateAll((bs) => bs.map((b) => b.dataset.ref));
  assert.deepEqual(failing.filter((r) => r.includes('web-7d9-p')),
    ['Pod/shop/web-7d9-p1017', 'Pod/shop/web-7d9-p17', 'Pod/shop/web-7d9-p2017'], 'the 3 not ready first');
  assert.ok(await page.locator('.map-box').count() < 40, 'a few boxes, not 3000');
  await group.click();
  await page.waitForFunction(() => document.querySelectorAll('.map-box.object[data-kind="Pod"]').length > 150);
  assert.ok(await page.locator('.map-box').count() < 260, 'expanded up to the cap');
  assert.ok(await page.evaluate(() => document.querySelectorAll('*').length) < 3000, 'the page stays small');
  await page.locator('.filter-bar .f-namespace select').selectOption('other');
  await page.waitForFunction(() => document.querySelectorAll('.map-box.object').length === 1);
  assert.equal(await page.locator('.map-box.object').getAttribute('data-ref'), 'Pod/other/lonely');
});

for (const colorScheme of ['light', 'dark']) {
  for (const locale of ['en-US', 'zh-CN']) {
    test(`screenshots of the map: ${colorScheme}, ${locale}`, async (t) => {
      const page = await open(t, '#sample=readiness&view=map', { colorScheme, locale });
      const service = reports.readiness.objects.findIndex((o) => o.ref.kind === 'Service');
      await page.locator(`.map-box.object[data-index="${service}"]`).first().click();
      await screenshot(page, `map-readiness-${colorScheme}-${locale.slice(0, 2)}`);
    });
  }
}
