// End-to-end: the views of every built-in sample, checked against the engine's own report for
// the same files (the native CLI's `--format json`), deep links, the language switch, the input
// viewer, a 100k-entry timeline, and screenshots of every view in both themes and both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, serveDist, launchBrowser, recordRequests, screenshot } from './harness.mjs';

// The samples and their files in the order samples.rs gives them to the engine.
const SAMPLES = {
  'node-label': ['input.txt', 'nodes.txt'],
  'image-pull': ['pod.yaml', 'events.txt'],
  'readiness': ['objects.yaml', 'events.txt', 'requests.txt'],
  'publish-not-ready': ['objects.json'],
  'quota-403': ['input.txt'],
  'dependency': ['input.txt'],
  'healthy': ['objects.yaml', 'events.txt'],
};
// DESIGN.md, "Fault boundaries": the diagram components of each boundary.
const PARTS = {
  'control-plane': ['kube-apiserver', 'kube-controller-manager'],
  'etcd': ['etcd'],
  'scheduling': ['kube-scheduler'],
  'node-runtime': ['kubelet', 'container-runtime'],
  'quota-admission': ['kube-apiserver', 'kube-controller-manager'],
  'zone-network-storage': ['kube-proxy-cni', 'volumes', 'cloud-controller-manager', 'kubelet'],
  'readiness-endpoints': ['kubelet', 'service-endpointslice', 'kube-proxy-cni'],
  'application': ['containers'],
};
const VIEWS = ['findings', 'diagram', 'timeline', 'table', 'map'];

let server;
let browser;
const reports = {};

/** The engine's report for a sample's files, from the native CLI (built here if needed). */
function engineReport(id, lang = 'en') {
  const dir = join(ROOT, 'static/samples', id);
  assert.deepEqual(readdirSync(dir).sort(), [...SAMPLES[id]].sort(), `the files of ${id}`);
  return cliReport(dir, SAMPLES[id], lang);
}

/** The native CLI's JSON report of `files` in `dir`, its texts in `lang` (with their messages). */
function cliReport(dir, files, lang = 'en') {
  const out = execFileSync('cargo', ['run', '-q', '--locked', '--manifest-path', join(ROOT, 'Cargo.toml'), '-p', 'faultline-cli',
    '--', 'analyze', '--format', 'json', '--lang', lang, ...files], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 });
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

/** Opens the app at `hash` in a fresh context; checks requests and page errors when the test ends. */
async function open(t, hash = '', options = {}, init = undefined) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  if (init) await context.addInitScript(init);
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

async function showView(page, view) {
  await page.locator(`.view-tab[data-view="${view}"]`).click();
  await page.locator(`.view[data-view="${view}"]`).waitFor();
}

for (const id of Object.keys(SAMPLES)) {
  test(`sample ${id}: findings, diagram, table and timeline match the engine's report`, async (t) => {
    const report = reports[id];
    const page = await open(t, `#sample=${id}`);
    assert.equal(await page.locator('#sample').inputValue(), id);

    // Findings, in the report's order; those of one rule and workload are one card (a group), its
    // other members shown once it is opened, each group at its first member's place.
    const closed = await page.locator('.findings > .finding, .finding-group > .finding:first-of-type').count();
    for (const toggle of await page.locator('.group-toggle').all()) await toggle.click();
    const cards = await page.locator('.finding').evaluateAll((cs) => cs.map((c) => [c.dataset.rule, c.dataset.boundary]));
    const key = ([rule, boundary]) => `${rule} ${boundary}`;
    assert.deepEqual(cards.map(key).sort(), report.findings.map((f) => key([f.rule, f.boundary])).sort());
    if (report.findings.length > 0) assert.deepEqual(cards[0], [report.findings[0].rule, report.findings[0].boundary]);
    assert.ok(closed <= report.findings.length);

    // Diagram: every finding lights a component of its boundary; nothing else is lit.
    await showView(page, 'diagram');
    const lit = await page.locator('.part.lit').evaluateAll((ps) => ps.map((p) => ({
      part: p.dataset.part, node: p.dataset.node ?? null, severity: p.dataset.severity })));
    const boundaries = [...new Set(report.findings.map((f) => f.boundary))];
    for (const b of boundaries) {
      assert.ok(lit.some((l) => PARTS[b].includes(l.part)), `${id}: ${b} lights one of ${PARTS[b]}: ${JSON.stringify(lit)}`);
    }
    const allowed = new Set(boundaries.flatMap((b) => PARTS[b]));
    assert.ok(lit.every((l) => allowed.has(l.part)), `${id}: only implicated parts lit: ${JSON.stringify(lit)}`);
    if (report.findings.length === 0) assert.equal(lit.length, 0);
    const worst = ['error', 'warning', 'info'].find((s) => report.findings.some((f) => f.severity === s));
    if (worst) assert.ok(lit.some((l) => l.severity === worst), `${id}: lit by the worst severity ${worst}`);
    for (const f of report.findings.filter((f) => f.subject.kind === 'Pod' && f.boundary === 'node-runtime')) {
      const node = f.evidence.find((e) => e.path.endsWith('nodeName'))?.value;
      if (node) assert.ok(lit.some((l) => l.part === 'kubelet' && l.node === node), `${id}: kubelet of ${node}`);
    }
    if (lit.length > 0) {
      // Clicking a lit component lists its findings, which are the report's.
      const first = page.locator('.part.lit').first();
      await first.click();
      const rules = await page.locator('.part-finding').evaluateAll((ls) => ls.map((l) => l.dataset.rule));
      assert.ok(rules.length > 0 && rules.every((r) => report.findings.some((f) => f.rule === r)), rules.join());
    }
    assert.match(await page.locator('.diagram .note').textContent(), /not this cluster's physical topology/);

    // Boundary table: eight rows; exactly the report's boundaries carry evidence.
    await showView(page, 'table');
    const rows = await page.locator('.boundary-row').evaluateAll((rs) => rs.map((r) => ({
      boundary: r.dataset.boundary, evidenced: r.classList.contains('evidenced'),
      symptoms: r.querySelector('.symptoms').textContent, first: r.querySelector('.first-evidence').textContent })));
    // The rows with evidence first, in the order of their first finding; then the quiet ones in the
    // article's order.
    const ARTICLE = ['control-plane', 'etcd', 'scheduling', 'node-runtime',
      'quota-admission', 'zone-network-storage', 'readiness-endpoints', 'application'];
    const evidenced = [...new Set(report.findings.map((f) => f.boundary))];
    assert.deepEqual(rows.map((r) => r.boundary), [...evidenced, ...ARTICLE.filter((b) => !evidenced.includes(b))]);
    for (const row of rows) {
      const found = report.findings.filter((f) => f.boundary === row.boundary);
      assert.equal(row.evidenced, found.length > 0, `${id}: ${row.boundary}`);
      if (found.length === 0) {
        assert.equal(row.symptoms, 'no evidence in this input');
      } else {
        // The first evidence of the row's root cause (a root error or warning if there is one), a
        // status or an event before a spec field.
        const root = found.find((f) => !f.explained_by && f.severity !== 'info') ?? found[0];
        const e = root.evidence.find((x) => !x.path.startsWith('spec.')) ?? root.evidence[0];
        assert.ok(row.first.startsWith(`${e.source}:${e.line}`), `${id}: ${row.first}`);
        for (const f of found) assert.ok(row.symptoms.includes(f.rule), row.symptoms);
      }
    }
    assert.doesNotMatch(await page.locator('.boundary-table').textContent(), /healthy/i);

    // Timeline: every entry, in the engine's order reversed: newest first by default.
    await showView(page, 'timeline');
    assert.equal(await page.locator('.tl-count').textContent(),
      `${report.timeline.length} of ${report.timeline.length} entries`);
    const newest = report.timeline.map((_, i) => i).reverse();
    const shown = await page.locator('.tl-row').evaluateAll((rs) => rs.map((r) => Number(r.dataset.index)));
    assert.deepEqual(shown, newest.slice(0, shown.length));
    const reasons = await page.locator('.tl-row .tl-what strong').allTextContents();
    assert.deepEqual(reasons, newest.slice(0, shown.length).map((i) => report.timeline[i].reason));
    const times = report.timeline.map((e) => e.time).filter(Boolean);
    assert.deepEqual(times, [...times].sort(), 'the report is in time order');
  });
}

test('a deep link opens its sample and view, and the hash follows the view', async (t) => {
  const page = await open(t, '#sample=quota-403&view=table');
  assert.equal(await page.locator('#sample').inputValue(), 'quota-403');
  assert.equal(await page.locator('.view-tab[aria-selected="true"]').getAttribute('data-view'), 'table');
  assert.equal(await page.locator('.boundary-row.evidenced').getAttribute('data-boundary'), 'quota-admission');
  await showView(page, 'timeline');
  assert.equal(new URL(page.url()).hash, '#sample=quota-403&view=timeline');
  // A link inside the page (documentation pointing at another example).
  await page.evaluate(() => { location.hash = '#sample=node-label&view=diagram'; });
  await page.locator('.view[data-view="diagram"]').waitFor();
  assert.equal(await page.locator('#sample').inputValue(), 'node-label');
  assert.equal(await page.locator('.part.lit').getAttribute('data-part'), 'kube-scheduler');
  // The keyboard moves between the tabs.
  await page.locator('.view-tab[data-view="diagram"]').focus();
  await page.keyboard.press('ArrowRight');
  await page.locator('.view[data-view="timeline"]').waitFor();
});

test('a table row links to its finding, and evidence opens the input viewer at its line', async (t) => {
  const page = await open(t, '#sample=image-pull&view=table');
  await page.locator('.boundary-row.evidenced .finding-link').first().click();
  await page.locator('.view[data-view="findings"]').waitFor();
  assert.equal(await page.locator('.finding.selected').getAttribute('data-rule'), 'image-pull-failed');
  await page.locator('.finding .evidence button.where', { hasText: 'pod.yaml:111' }).click();
  const line = page.locator('.input-viewer .line.highlight');
  await line.waitFor();
  assert.equal(await line.getAttribute('data-line'), '111');
  assert.match(await line.textContent(), /reason: ErrImagePull/);
  await screenshot(page, 'input-viewer');
});

/** Visible UI text in the page: text nodes outside report data (`translate="no"`) and the inputs. */
const uiTexts = (page) => page.evaluate(() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const text = n.textContent.trim();
    if (!text || el.closest('[translate="no"], textarea, script, style, noscript, option')) continue;
    if (!el.checkVisibility()) continue;
    out.push(text);
  }
  for (const option of document.querySelectorAll('select option:not([translate="no"])')) out.push(option.textContent.trim());
  return out;
});
// Words that stay as they are in Chinese: names of programs, components, kinds and formats.
const KEEP = new Set(['Faultline', 'Kubernetes', 'English', 'kubectl', 'kubelet', 'etcd', 'kube-apiserver', 'kube-scheduler',
  'kube-controller-manager', 'cloud-controller-manager', 'kube-proxy', 'CNI', 'CRI', 'CSI', 'Service',
  'EndpointSlice', 'Pod', 'API', 'YAML', 'JSON', 'get', 'yaml', 'json', 'Markdown', 'HTML',
  // API field names and values, as the input writes them, and the Tab key's name.
  // A time zone's name, written so in Chinese too.
  'UTC',
  'Tab', 'ownerReferences', 'targetRef', 'ready', 'serving', 'terminating', 'true', 'false']);
const english = (texts) => texts.filter((s) => (s.match(/[A-Za-z][A-Za-z-]{2,}/g) ?? []).some((w) => !KEEP.has(w)));

test('the Chinese UI has no English left, and the switch changes every visible string', async (t) => {
  const page = await open(t, '#sample=image-pull', { locale: 'zh-CN' });
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.equal(await page.title(), 'Faultline — 在浏览器中诊断 Kubernetes 故障');
  for (const view of VIEWS) {
    await showView(page, view);
    if (view === 'diagram') await page.locator('.part.lit').first().click();
    if (view === 'map') await page.locator('.map-box.lit').first().click();
    if (view === 'timeline') await page.locator('.tl-row').first().hover();
    if (view === 'findings') {
      await page.locator('.rule-docs-toggle').first().click();
      await page.locator('.rule-docs h5').first().waitFor();
    }
    assert.deepEqual(english(await uiTexts(page)), [], `${view}: English left in the Chinese UI`);
  }
  await showView(page, 'findings');
  // To English: every string changes; no Chinese is left.
  await page.getByRole('button', { name: 'English' }).click();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.equal(await page.title(), 'Faultline — Kubernetes incident diagnosis in your browser');
  for (const view of VIEWS) {
    await showView(page, view);
    const texts = await uiTexts(page);
    assert.deepEqual(texts.filter((s) => /[\u4e00-\u9fff]/.test(s) && s !== '中文'), [], `${view}: Chinese left`);
  }
  // Nothing was stored: the choice lives in the page only.
  assert.deepEqual(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie]), [0, 0, '']);
});

// Issue 24: the diagnosis itself in the page's language, not only the page's words.
const hasChinese = (s) => /[\u4e00-\u9fff]/.test(s);
/** Whether a text of the report is a message converted to Chinese (not one left as it was). */
const converted = (message) => message && message.id !== 'untranslated';

/**
 * Checks that the page shows `report`'s texts (the CLI's, in the page's language) in the findings,
 * the boundary table and the timeline, and that in Chinese every text the engine has a Chinese
 * message for is in Chinese. `atLeast`: rules whose summaries must be Chinese already.
 */
async function showsTexts(page, report, lang, atLeast = []) {
  await showView(page, 'findings');
  const cards = await page.locator('.finding').evaluateAll((cs) => cs.map((c) => ({
    rule: c.dataset.rule,
    summary: c.querySelector('.summary').textContent,
    cannot: [...c.querySelectorAll('.cannot li')].map((li) => li.textContent),
  })));
  assert.deepEqual(cards.map((c) => c.rule), report.findings.map((f) => f.rule));
  report.findings.forEach((f, i) => {
    // Its `code spans` are shown as code: the page's text is the summary without the backticks.
    assert.equal(cards[i].summary, f.summary.replaceAll('`', ''), `finding ${i + 1} (${f.rule})`);
    assert.deepEqual(cards[i].cannot, f.cannot_establish.map((c) => c.replaceAll('`', '')), `finding ${i + 1} (${f.rule})`);
    if (lang === 'zh' && converted(f.message)) assert.ok(hasChinese(cards[i].summary), `${f.rule}: ${cards[i].summary}`);
    if (lang === 'zh') {
      (f.cannot_establish_messages ?? []).forEach((m, j) => {
        if (converted(m)) assert.ok(hasChinese(cards[i].cannot[j]), `${f.rule}: ${cards[i].cannot[j]}`);
      });
    }
    if (lang === 'en') assert.ok(!hasChinese(cards[i].summary), cards[i].summary);
  });
  for (const rule of atLeast) {
    const summaries = cards.filter((c) => c.rule === rule).map((c) => c.summary);
    assert.ok(summaries.length > 0 && summaries.every(lang === 'zh' ? hasChinese : (s) => !hasChinese(s)),
      `${rule} in ${lang}: ${summaries}`);
  }
  // The input errors.
  const errors = await page.locator('.input-errors .input-error').evaluateAll((es) => es.map((e) => ({
    where: e.querySelector('.where').textContent, message: e.querySelector('.message').textContent })));
  assert.deepEqual(errors, report.errors.map((e) => ({ where: `${e.source}:${e.line}:${e.column}`, message: e.message })));
  if (lang === 'zh') {
    report.errors.forEach((e, i) => { if (converted(e.structured)) assert.ok(hasChinese(errors[i].message), errors[i].message); });
  }
  // The boundary table's cells: what the evidence cannot establish, per boundary, each once.
  await showView(page, 'table');
  for (const boundary of new Set(report.findings.map((f) => f.boundary))) {
    const cells = await page.locator(`.boundary-row[data-boundary="${boundary}"] td.cannot li`).allTextContents();
    const expected = [...new Set(report.findings.filter((f) => f.boundary === boundary).flatMap((f) => f.cannot_establish))]
      .map((c) => c.replaceAll('`', ''));
    assert.deepEqual(cells, expected.slice(0, cells.length), boundary);
    assert.ok(cells.length > 0 || expected.length === 0, boundary);
  }
  // The timeline's descriptions (the rows shown), and the engine's in Chinese where it has them.
  await showView(page, 'timeline');
  const rows = await page.locator('.tl-row').evaluateAll((rs) => rs.map((r) => ({
    index: Number(r.dataset.index), what: r.querySelector('.tl-what').textContent })));
  assert.ok(rows.length > 0);
  for (const { index, what } of rows) {
    const e = report.timeline[index];
    assert.equal(what, `${e.reason}${e.count > 1 ? ` ×${e.count}` : ''}${e.message ? ` — ${e.message}` : ''}`, `entry ${index}`);
    if (lang === 'zh' && converted(e.structured)) assert.ok(hasChinese(e.message), e.message);
  }
  await showView(page, 'findings');
}

test('in Chinese the diagnosis itself is Chinese: findings, table, timeline, as the engine writes them', async (t) => {
  const [en, zh] = [engineReport('image-pull', 'en'), engineReport('image-pull', 'zh')];
  const page = await open(t, '#sample=image-pull', { locale: 'zh-CN' });
  await showsTexts(page, zh, 'zh', ['image-pull-failed']);
  await page.getByRole('button', { name: 'English' }).click();
  await showsTexts(page, en, 'en', ['image-pull-failed']);
  await page.getByRole('button', { name: '中文' }).click();
  await showsTexts(page, zh, 'zh', ['image-pull-failed']);
});

/** Records the type of every request the page posts to the engine's worker (`analyze`, `localize`, …). */
function recordWorkerRequests() {
  window.__workerRequests = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    try {
      window.__workerRequests.push(JSON.parse(new TextDecoder().decode(message.request)).type);
    } catch { /* not a request */ }
    return post.call(this, message, ...rest);
  };
}

test('switching language renders the worker\'s report again without analysing, input errors included', async (t) => {
  const page = await open(t, '#sample=image-pull', { locale: 'en-US' }, recordWorkerRequests);
  // The sample's files (dropped as the user's own: a paste over a sample replaces it) and a paste
  // with a syntax error: the worker's report, not the sample's.
  const dropped = await page.evaluateHandle((files) => {
    const dt = new DataTransfer();
    for (const [name, text] of files) dt.items.add(new File([text], name));
    return dt;
  }, SAMPLES['image-pull'].map((f) => [f, readFileSync(join(ROOT, 'static/samples/image-pull', f), 'utf8')]));
  await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
  await page.locator('.sample-removed').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('.input-row').length === 2);
  const broken = 'apiVersion: v1\nkind: Pod\nmetadata: [unclosed\n';
  await page.locator('#paste').fill(broken);
  await page.locator('.input-error', { hasText: 'paste:' }).waitFor();
  await page.locator('.app[data-analysis="idle"]').waitFor({ state: 'attached', timeout: 60_000 });
  const dir = mkdtempSync(join(tmpdir(), 'faultline-lang-'));
  writeFileSync(join(dir, 'paste'), broken);
  for (const file of SAMPLES['image-pull']) copyFileSync(join(ROOT, 'static/samples/image-pull', file), join(dir, file));
  const files = ['paste', ...SAMPLES['image-pull']];
  const [en, zh] = [cliReport(dir, files, 'en'), cliReport(dir, files, 'zh')];
  rmSync(dir, { recursive: true, force: true });
  assert.ok(en.errors.some((e) => e.source === 'paste'), JSON.stringify(en.errors));
  await showsTexts(page, en, 'en', ['image-pull-failed']);
  const steps = await page.locator('.analysis-time').getAttribute('data-steps');
  const secrets = await page.locator('.secrets li').count();
  const before = await page.evaluate(() => window.__workerRequests.length);
  assert.ok((await page.evaluate(() => window.__workerRequests)).includes('analyze'));

  await page.getByRole('button', { name: '中文' }).click();
  await page.locator('.finding[data-rule="image-pull-failed"] .summary', { hasText: /[\u4e00-\u9fff]/ }).first().waitFor();
  await showsTexts(page, zh, 'zh', ['image-pull-failed']);
  assert.deepEqual(await page.evaluate((n) => window.__workerRequests.slice(n), before), ['localize'],
    'the worker is asked for the texts, not for an analysis');
  assert.equal(await page.locator('.analysis-time').getAttribute('data-steps'), steps, 'the same analysis');
  assert.equal(await page.locator('.app').getAttribute('data-analysis'), 'idle');
  assert.equal(await page.locator('.secrets li').count(), secrets, 'the secret scan\'s result is still shown');
  assert.equal(await page.locator('.secrets-summary').count(), 1);
  await screenshot(page, 'findings-job-zh');
  await page.locator('.input-errors').scrollIntoViewIfNeeded();
  await page.locator('.inputs-list').screenshot({ path: join(ROOT, 'tests/browser/screenshots/input-error-zh.png') });
  await showView(page, 'table');
  await screenshot(page, 'table-job-zh');
  await showView(page, 'findings');

  await page.getByRole('button', { name: 'English' }).click();
  await page.locator('.finding[data-rule="image-pull-failed"] .summary', { hasText: /does not exist/ }).first().waitFor();
  await showsTexts(page, en, 'en', ['image-pull-failed']);
  assert.deepEqual(await page.evaluate((n) => window.__workerRequests.slice(n), before), ['localize', 'localize']);
});

test('the timeline filters, zooms and reads with the keyboard', async (t) => {
  const report = reports.readiness;
  const page = await open(t, '#sample=readiness&view=timeline');
  await page.locator('.tl-check.warnings input').check();
  const warnings = report.timeline.filter((e) => e.warning).length;
  assert.ok(warnings > 0);
  assert.equal(await page.locator('.tl-count').textContent(), `${warnings} of ${report.timeline.length} entries`);
  assert.equal(await page.locator('.tl-row.warning').count(), Math.min(warnings, await page.locator('.tl-row').count()));
  await page.locator('.tl-check.warnings input').uncheck();
  // The shared filter narrows the timeline too.
  await page.locator('.filter-bar .f-kind select').selectOption('Pod');
  const pods = report.timeline.filter((e) => e.subject.kind === 'Pod').length;
  assert.equal(await page.locator('.tl-count').textContent(), `${pods} of ${report.timeline.length} entries`);
  await page.locator('.filter-bar .f-kind select').selectOption('');
  await page.locator('.tl-zoom.in').click();
  const zoomed = Number((await page.locator('.tl-count').textContent()).split(' ')[0]);
  assert.ok(zoomed < report.timeline.length, `zoomed in shows fewer: ${zoomed}`);
  await page.locator('.tl-zoom.reset').click();
  await page.locator('.tl-filter.order select').selectOption('oldest');
  await page.mouse.move(0, 0);
  await page.locator('.tl-viewport').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const details = await page.locator('.tl-details').textContent();
  assert.ok(details.includes(report.timeline[1].reason), details);
  const at = report.timeline[1].at;
  if (at) assert.ok(details.includes(`${at.source}:${at.line}`), details);
});

/** The rows drawn: index into the report's timeline, time cell, classes. */
async function timelineRows(page) {
  return page.locator('.tl-row').evaluateAll((rs) => rs.map((r) => ({
    index: Number(r.dataset.index), time: r.querySelector('.tl-time').textContent.trim(),
    aged: r.classList.contains('aged'), before: r.classList.contains('before-created'),
    reason: r.querySelector('.tl-what strong').textContent })));
}

test('the image-pull timeline: ages as ages, after the Pod was created, newest first, the order switchable', async (t) => {
  const report = reports['image-pull'];
  const page = await open(t, '#sample=image-pull&view=timeline');
  // The capture moment, and how it is known: the Pod was created at 09:35:34 and its Scheduled
  // event is 4m31s old, so the capture was at 09:40:05 or later.
  assert.equal(report.capture.time, '2025-02-11T09:40:05Z');
  const capture = await page.locator('.tl-capture-now').textContent();
  assert.match(capture, /^Captured: 2025-02-11 09:40:05 UTC or later: no event is older than its object/);
  assert.match(capture, /\(Pod exp-runtime\/tag-probe was created at 2025-02-11 09:35:34 UTC; its Scheduled event is 4m31s old\)$/);
  let rows = await timelineRows(page);
  assert.equal(rows.length, report.timeline.length);
  assert.deepEqual(rows.map((r) => r.index), report.timeline.map((_, i) => i).reverse(), 'newest first');
  // Age-only rows say their age; the dated ones their full date (2025 is not this year).
  for (const r of rows) {
    const e = report.timeline[r.index];
    if (e.age !== undefined) {
      assert.ok(r.aged && / before capture$/.test(r.time), `${e.reason}: ${r.time}`);
    } else {
      assert.equal(r.time, e.time.replace('T', ' ').replace('Z', ''), e.reason);
    }
    assert.equal(r.before, false, 'nothing is placed before the Pod existed');
  }
  assert.ok(rows.some((r) => r.time === '4m31s before capture' && r.reason === 'Scheduled'));
  assert.ok(rows.some((r) => r.time === '11s before capture' && r.reason === 'Failed'));
  await page.locator('.tl-filter.order select').selectOption('oldest');
  rows = await timelineRows(page);
  const created = rows.findIndex((r) => r.reason === 'Created');
  const failed = rows.map((r, i) => (r.reason === 'Failed' ? i : -1)).filter((i) => i >= 0);
  assert.equal(failed.length, 3);
  assert.ok(created >= 0 && failed.every((i) => i > created), 'the pull failures come after the Pod was created');
  await page.locator('.tl-row').first().hover();
  await screenshot(page, 'timeline-image-pull-en');
});

test('the capture time set in the timeline places the ages again and flags what falls before its object', async (t) => {
  const page = await open(t, '#sample=image-pull&view=timeline');
  await page.locator('.tl-capture-input').fill('nonsense');
  await page.locator('.tl-capture-set').click();
  assert.match(await page.locator('.tl-capture-error').textContent(), /Not a time/);
  await page.locator('.tl-capture-input').fill('2025-02-11T09:36:00Z');
  await page.locator('.tl-capture-input').press('Enter');
  await page.locator('.tl-row.before-created').first().waitFor();
  assert.match(await page.locator('.tl-capture-now').textContent(), /^Captured: 2025-02-11 09:36:00 UTC set by you/);
  const rows = await timelineRows(page);
  const flagged = rows.filter((r) => r.before).map((r) => r.reason);
  assert.deepEqual(flagged, ['Scheduled'], 'only the event 4m31s before 09:36:00 falls before 09:35:34');
  // Kept where its time puts it: oldest of all, last when newest is first.
  assert.equal(rows.at(-1).reason, 'Scheduled');
  assert.match(await page.locator('.tl-row.before-created .tl-flag').getAttribute('aria-label'), /before its object was created/);
  await page.locator('.tl-row.before-created').hover();
  assert.match(await page.locator('.tl-details').textContent(), /4m31s before capture · ≈ 2025-02-11 09:31:29 UTC/);
  assert.match(await page.locator('.tl-details').textContent(), /Placed before this object's creation/);
  await screenshot(page, 'timeline-capture-set-en');
  // The exports carry the capture set.
  await showView(page, 'findings');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.export-json').click()]);
  const json = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.deepEqual(json.capture, { time: '2025-02-11T09:36:00Z', basis: 'set' });
  assert.equal(download.suggestedFilename(), 'faultline-tag-probe-2025-02-11.json');
  await showView(page, 'timeline');
  await page.locator('.tl-capture-reset').click();
  assert.match(await page.locator('.tl-capture-now').textContent(), /09:40:05 UTC or later/);
  assert.equal(await page.locator('.tl-row.before-created').count(), 0);
});

test('the timeline switches between UTC and the local zone, which it names', async (t) => {
  const page = await open(t, '#sample=image-pull&view=timeline', { timezoneId: 'Asia/Shanghai' });
  assert.match(await page.locator('.tl-range').textContent(), /^2025-02-11 09:35:34 → 2025-02-11 09:39:54 UTC$/);
  await page.locator('.tl-filter.zone select').selectOption('local');
  assert.match(await page.locator('.tl-range').textContent(), /^2025-02-11 17:35:34 → 2025-02-11 17:39:54 Local time \(UTC\+08:00\)$/);
  const rows = await timelineRows(page);
  const created = rows.find((r) => r.reason === 'Created');
  assert.equal(created.time, '2025-02-11 17:35:34');
  assert.match(await page.locator('.tl-capture-now').textContent(), /2025-02-11 17:40:05 Local time \(UTC\+08:00\)/);
  await page.locator('.tl-filter.zone select').selectOption('utc');
  assert.equal((await timelineRows(page)).find((r) => r.reason === 'Created').time, '2025-02-11 09:35:34');
});

test('the timeline in Chinese: ages, capture and switches in Chinese', async (t) => {
  const page = await open(t, '#sample=image-pull&view=timeline');
  await page.getByRole('button', { name: '中文' }).click();
  await page.locator('.tl-capture-now').filter({ hasText: '采集时间' }).waitFor();
  assert.match(await page.locator('.tl-capture-now').textContent(), /^采集时间: 2025-02-11 09:40:05 UTC 或更晚：事件不会早于其对象/);
  const rows = await timelineRows(page);
  assert.ok(rows.some((r) => r.time === '采集前 4m31s'), JSON.stringify(rows.map((r) => r.time)));
  assert.equal(await page.locator('.tl-filter.order select option:checked').textContent(), '最新在前');
  await page.locator('.tl-row').first().hover();
  await screenshot(page, 'timeline-image-pull-zh');
});

test('a 100k-entry timeline scrolls with a small DOM', async (t) => {
  const page = await open(t, '#sample=image-pull&view=timeline');
  await page.getByRole('button', { name: 'Clear all' }).click();
  const rows = 100_000;
  const dataTransfer = await page.evaluateHandle((n) => {
    const lines = ['LAST SEEN   TYPE      REASON      OBJECT            MESSAGE'];
    for (let i = 0; i < n; i++) {
      const age = `${Math.floor(i / 60)}m${i % 60}s`.padEnd(12);
      lines.push(`${age}${i % 7 === 0 ? 'Warning   BackOff   ' : 'Normal    Pulled    '}  ${`pod/web-${i % 500}`.padEnd(18)}message ${i}`);
    }
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: anchor\n  namespace: default\n  creationTimestamp: "2026-10-27T12:00:00Z"\n';
    const dt = new DataTransfer();
    dt.items.add(new File([lines.join('\n') + '\n'], 'events.txt'));
    dt.items.add(new File([pod], 'anchor.yaml'));
    return dt;
  }, rows);
  await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer });
  await page.waitForFunction(() => /^\d{6} of/.test(document.querySelector('.tl-count')?.textContent ?? ''), null,
    { timeout: 120_000 });
  const count = Number((await page.locator('.tl-count').textContent()).split(' ')[0]);
  assert.ok(count >= rows, `${count} entries`);
  const drawn = () => page.locator('.tl-row').count();
  assert.ok(await drawn() < 60, `only visible rows are drawn: ${await drawn()}`);
  const viewport = page.locator('.tl-viewport');
  await viewport.evaluate((v) => { v.scrollTop = v.scrollHeight / 2; });
  await page.waitForFunction(() => [...document.querySelectorAll('.tl-row')].some((r) => Number(r.dataset.index) > 40000));
  assert.ok(await drawn() < 60);
  await viewport.focus();
  await page.keyboard.press('End');
  await page.waitForFunction((last) => document.querySelector('.tl-row.active')?.id === `tl-row-${last}`, count - 1);
  assert.ok(await drawn() < 60);
  assert.ok(await page.evaluate(() => document.querySelectorAll('*').length) < 2000, 'the whole page stays small');
  // No inline style attributes (the rows are placed by SVG spacers), so a CSP without
  // 'unsafe-inline' styles does not break the timeline.
  assert.equal(await page.evaluate(() => document.querySelectorAll('[style]').length), 0);
});

// WCAG AA: text contrast at least 4.5:1 against what is behind it, in both themes and every view.
/** Runs in the page: every visible text's contrast; returns the low ones and how many were checked. */
function measureContrast(view) {
  const rgb = (c) => (c.match(/[\d.]+/g) ?? []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const behind = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || c[3] > 0) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const low = [];
  let checked = 0;
  // HTML text: every visible element with text of its own.
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg') || !el.checkVisibility()) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const r = ratio(rgb(getComputedStyle(el).color).slice(0, 3), behind(el));
    checked += 1;
    if (r < 4.5) low.push(`${view}: ${el.tagName}.${el.className} "${el.textContent.trim().slice(0, 30)}" ${r.toFixed(2)}`);
  }
  // SVG text: its fill against its box's fill (components) or the drawing's background (edges).
  for (const text of document.querySelectorAll('svg text')) {
    // A box's own rect (not a clip path's, nor the first box of the drawing for a column label).
    const box = text.parentElement.tagName === 'g' ? text.parentElement.querySelector(':scope > rect') : null;
    const back = box ? rgb(getComputedStyle(box).fill) : behind(text.closest('svg'));
    const r = ratio(rgb(getComputedStyle(text).fill), back);
    checked += 1;
    if (r < 4.5) low.push(`${view}: svg ${text.getAttribute('class')} "${text.textContent}" ${r.toFixed(2)}`);
  }
  return { low, checked };
}

for (const colorScheme of ['light', 'dark']) {
  test(`text contrast is at least 4.5:1 (${colorScheme})`, async (t) => {
    const page = await open(t, '#sample=readiness', { colorScheme });
    const low = [];
    let checked = 0;
    for (const view of VIEWS) {
      await showView(page, view);
      if (view === 'diagram') await page.locator('.part.lit').first().click();
      if (view === 'map') await page.locator('.map-box.lit').first().click();
      if (view === 'timeline') await page.locator('.tl-check.warnings input').check();
      const result = await page.evaluate(measureContrast, view);
      low.push(...result.low);
      checked += result.checked;
    }
    assert.ok(checked > 200, `${checked} texts checked`);
    assert.deepEqual(low, []);
    // The measure can fail: a caption in a colour close to the background is caught.
    await showView(page, 'table');
    const faint = colorScheme === 'light' ? '#bbbbbb' : '#333333';
    // Through the CSSOM: the page's Content-Security-Policy (rightly) refuses an injected <style>.
    await page.evaluate((c) => document.querySelector('.boundary-table caption').style.setProperty('color', c, 'important'), faint);
    const { low: pale } = await page.evaluate(measureContrast, 'table');
    assert.ok(pale.some((l) => l.includes('CAPTION')), pale.join('\n'));
  });
}

test('every view fits a 1024 px wide window without sideways scrolling', async (t) => {
  for (const locale of ['en-US', 'zh-CN']) {
    const page = await open(t, '#sample=readiness', { viewport: { width: 1024, height: 768 }, locale });
    for (const view of VIEWS) {
      await showView(page, view);
      const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth,
        document.documentElement.clientWidth]);
      assert.ok(scroll <= client, `${locale} ${view}: ${scroll} > ${client}`);
    }
    await screenshot(page, `narrow-1024-${locale.slice(0, 2)}`);
  }
});

// Every view, in both themes and both languages, for the README and for looking at.
for (const colorScheme of ['light', 'dark']) {
  for (const locale of ['en-US', 'zh-CN']) {
    test(`screenshots: ${colorScheme}, ${locale}`, async (t) => {
      const page = await open(t, '#sample=image-pull', { colorScheme, locale });
      const lang = locale.slice(0, 2);
      for (const view of VIEWS) {
        await showView(page, view);
        if (view === 'diagram') await page.locator('.part.lit').first().click();
        if (view === 'map') await page.locator('.map-box.lit').first().click();
        if (view === 'timeline') await page.locator('.tl-row').nth(2).hover();
        await screenshot(page, `view-${view}-${colorScheme}-${lang}`);
      }
      if (colorScheme === 'light' && lang === 'en') {
        // The printout: no inputs, tabs or controls; the view's content only.
        await page.emulateMedia({ media: 'print' });
        assert.equal(await page.locator('.views').isVisible(), false);
        assert.equal(await page.locator('.drop-zone').isVisible(), false);
        await screenshot(page, 'print-table');
      }
    });
  }
}
