// Every view on a phone (issue 40.4) and overflow at scale on a desktop (issue 40.7). At 390 × 844,
// in both languages, each view (Findings, Architecture, Timeline, Boundary table, Object map, Rules)
// is measured as the reader sees it: nothing wider than the screen, no visible text under 11 px —
// in an SVG its size after the drawing is scaled to the screen, from the text's screen matrix — the
// timeline's times whole, the boundary table as cards, and a cue from the paste box to the
// diagnosis. At 1366 × 900 with a 500-Pod dump, the table's commands and the map's names stay
// inside their cells and boxes. Screenshots of each state go to tests/browser/screenshots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, SCREENSHOTS, serveDist, launchBrowser, analysed, screenshot } from './harness.mjs';
import { measure } from './measure.mjs';

const VIEWS = ['findings', 'diagram', 'timeline', 'table', 'map', 'rules'];
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };
/** The smallest text a phone's reader is asked to read, in CSS px on the screen. */
const MIN_TEXT = 11;

let server;
let browser;
let dump;

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-phone-'));
  const file = join(dir, 'dump-500.yaml');
  execFileSync('python3', [join(ROOT, '../shared/tools/gen-dump.py'), '--pods', '500', '--format', 'yaml', '--out', file]);
  dump = readFileSync(file, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  server = await serveDist();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(t, hash, options) {
  const context = await browser.newContext(options);
  t.after(() => context.close());
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  t.after(() => assert.deepEqual(errors, [], 'no uncaught error in the page'));
  await page.goto(server.url + hash, { waitUntil: 'load' });
  await page.locator('.view').waitFor();
  await analysed(page);
  return page;
}

/** A screen's worth of the page from `selector` down (for the README: a phone's page is 3,000–16,000
 * px tall whole). */
async function screenFrom(page, name, selector, height = 1300) {
  const top = await page.locator(selector).first().evaluate((e) => e.getBoundingClientRect().top + window.scrollY);
  const width = page.viewportSize().width;
  const y = Math.max(0, top - 8);
  const bottom = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true,
    clip: { x: 0, y, width, height: Math.min(height, bottom - y) } });
}

async function showView(page, view) {
  await page.locator(`.view-tab[data-view="${view}"]`).click();
  await page.locator(`.view[data-view="${view}"]`).waitFor();
}

async function dropDump(page) {
  const dataTransfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dump-500.yaml', { type: 'application/x-yaml' }));
    return dt;
  }, dump);
  await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer });
  await page.locator('.input-row .source', { hasText: 'dump-500.yaml' }).waitFor({ timeout: 180_000 });
  await analysed(page, 180_000);
}

/** Every timeline time drawn, with what of it is hidden (cut at the right, or below its row). */
const timelineTimes = () => [...document.querySelectorAll('.tl-row .tl-time')].map((e) => ({
  text: e.textContent.trim(), cut: e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().bottom >
    e.closest('.tl-row').getBoundingClientRect().bottom + 0.5 || e.getBoundingClientRect().right >
    e.closest('.tl-row').getBoundingClientRect().right }));

/** The boundary table's rows as the reader sees them: laid out as a table row or not, the width of
 * each cell, and the column name shown above each cell (a card's label). */
const tableRows = () => [...document.querySelectorAll('.boundary-row')].map((tr) => ({
  display: getComputedStyle(tr).display,
  width: tr.getBoundingClientRect().width,
  cells: [...tr.querySelectorAll('td')].map((td) => ({
    width: td.getBoundingClientRect().width,
    label: getComputedStyle(td, '::before').content.replace(/^"|"$/g, ''),
  })),
}));

for (const locale of ['en-US', 'zh-CN']) {
  const lang = locale.slice(0, 2);
  test(`${lang}: a phone (390 × 844), every view: nothing wider than the screen, no text under ${MIN_TEXT} px`, async (t) => {
    const page = await open(t, '#sample=readiness', { ...PHONE, locale });
    const figures = {};
    for (const view of VIEWS) {
      await showView(page, view);
      if (view === 'diagram') await page.locator('.diagram .part-item.lit').first().click();
      if (view === 'map') await page.locator('.map-item.error .map-item-button, .map-item.warning .map-item-button').first().click();
      const m = await page.evaluate(measure);
      figures[view] = { smallest: m.smallest, widest: m.widest };
      assert.equal(m.scrollWidth, m.width, `${view}: the page scrolls sideways: ${JSON.stringify(m.out.slice(0, 5))}`);
      assert.deepEqual(m.out.slice(0, 5), [], `${view}: wider than the screen`);
      assert.deepEqual(m.scrolling, [], `${view}: a box scrolls sideways`);
      assert.deepEqual(m.small.slice(0, 5), [], `${view}: text under ${MIN_TEXT} px`);
      await screenshot(page, `phone-${view}-${lang}`);
      // (Not the Rules page: 45,000 px tall, more than Chromium captures whole.)
      if (view !== 'rules') {
        await screenFrom(page, `phone-${view}-${lang}-view`, view === 'findings' ? 'body' : '.view', view === 'findings' ? 1700 : 1300);
      }
    }
    t.diagnostic(JSON.stringify(figures));
  });

  test(`${lang}: on a phone the diagram is a list of the implicated components, the worst first`, async (t) => {
    const page = await open(t, '#sample=readiness&view=diagram', { ...PHONE, locale });
    assert.equal(await page.locator('svg.architecture').count(), 0, 'no 5 px drawing');
    // The errors (in the drawing's order: the kubelet of a node not named above the Service), then
    // the warnings: the kubelets of the two nodes whose Pods fail their probe.
    const items = await page.locator('.part-item').evaluateAll((bs) => bs.map((b) => [b.dataset.part, b.dataset.node ?? null, b.dataset.severity]));
    assert.deepEqual(items, [['kubelet', null, 'error'], ['service-endpointslice', null, 'error'],
      ['kubelet', 'lab-worker', 'warning'], ['kubelet', 'lab-worker2', 'warning']]);
    assert.match(await page.locator('.parts-quiet').textContent(), lang === 'en' ? /^Not implicated: .*etcd/ : /^未被牵涉：.*etcd/);
    await page.locator('.part-item').nth(1).click();
    assert.equal(await page.locator('.part-item').nth(1).getAttribute('aria-pressed'), 'true');
    const rules = await page.locator('.part-panel .part-finding').evaluateAll((ls) => ls.map((l) => l.dataset.rule));
    assert.ok(rules.includes('service-endpoints-not-serving'), rules.join());
    // Wider than a phone, the drawing is back.
    await page.setViewportSize({ width: 1024, height: 844 });
    await page.locator('svg.architecture').waitFor();
    assert.equal(await page.locator('.part-item').count(), 0);
  });

  test(`${lang}: on a phone the timeline shows each entry's time of day, whole`, async (t) => {
    const page = await open(t, '#sample=readiness&view=timeline', { ...PHONE, locale });
    const times = await page.evaluate(timelineTimes);
    assert.ok(times.length > 10, `${times.length} rows`);
    assert.deepEqual(times.filter((x) => x.cut), [], 'a time cut off');
    const dated = times.filter((x) => !/before capture|采集前/.test(x.text));
    assert.ok(dated.length > 5 && dated.every((x) => /\d{2}:\d{2}:\d{2}/.test(x.text)), JSON.stringify(dated));
    // A window of one day that is not this year: each row shows the date and the time, on two lines.
    assert.ok(dated.every((x) => /^2025-02-11\s*09:5\d:\d{2}$/.test(x.text)), JSON.stringify(dated.slice(0, 3)));
  });

  test(`${lang}: on a phone the boundary table is one card per boundary, each cell under its column's name`, async (t) => {
    const page = await open(t, '#sample=readiness&view=table', { ...PHONE, locale });
    const headers = await page.locator('.boundary-table thead th').allTextContents();
    const rows = await page.evaluate(tableRows);
    assert.equal(rows.length, 8);
    for (const row of rows) {
      assert.notEqual(row.display, 'table-row');
      assert.ok(row.width <= 366, `a card fits the screen: ${row.width}`);
      // Each cell is the card's width (no column of 60 px that breaks words letter by letter).
      assert.ok(row.cells.every((c) => c.width >= row.width - 12), JSON.stringify(row.cells));
      assert.deepEqual(row.cells.map((c) => c.label), headers.slice(1));
    }
    // Wider than a phone, it is a table again.
    await page.setViewportSize({ width: 1366, height: 900 });
    assert.equal((await page.evaluate(tableRows))[0].display, 'table-row');
  });

  test(`${lang}: on a phone a line under the paste box says what the diagnosis found and goes there`, async (t) => {
    const page = await open(t, '#sample=readiness', { ...PHONE, locale });
    const cue = page.locator('.diagnosis-cue button');
    assert.equal(await cue.textContent(), lang === 'en'
      ? 'Diagnosis: 3 findings, Readiness / Service endpoints ↓' : '诊断：3 个发现，就绪 / Service 端点 ↓');
    const box = await cue.boundingBox();
    assert.ok(box.y + box.height <= 844, `on the first screen: ${JSON.stringify(box)}`);
    const results = await page.locator('#results').evaluate((e) => e.getBoundingClientRect().top);
    assert.ok(results > 844, `the diagnosis is below the first screen (${results})`);
    await cue.click();
    await page.waitForFunction(() => document.activeElement?.id === 'results');
    const top = await page.locator('#results').evaluate((e) => e.getBoundingClientRect().top);
    assert.ok(top >= -1 && top < 100, `the diagnosis at the top of the screen (${top})`);
    // The user's own paste: the line follows its report.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('#paste').fill('kubectl get pods\nNAME   READY   STATUS    RESTARTS   AGE\nweb-1  0/1     Pending   0          5m\n');
    await analysed(page);
    assert.notEqual(await cue.textContent(), lang === 'en'
      ? 'Diagnosis: 3 findings, Readiness / Service endpoints ↓' : '诊断：3 个发现，就绪 / Service 端点 ↓');
    await screenshot(page, `phone-cue-${lang}`);
    // Beside the diagnosis (a desktop) the line is not needed.
    await page.setViewportSize({ width: 1366, height: 900 });
    assert.equal(await cue.isVisible(), false);
  });
}

for (const locale of ['en-US', 'zh-CN']) {
  const lang = locale.slice(0, 2);
  test(`${lang}: 500 Pods on a phone: nothing wider than the screen, no text under ${MIN_TEXT} px, in any view`, async (t) => {
    const page = await open(t, '', { ...PHONE, locale });
    await dropDump(page);
    for (const view of VIEWS.filter((v) => v !== 'rules')) {
      await showView(page, view);
      const m = await page.evaluate(measure);
      assert.equal(m.scrollWidth, m.width, `${view}: the page scrolls sideways: ${JSON.stringify(m.out.slice(0, 5))}`);
      assert.deepEqual(m.out.slice(0, 5), [], `${view}: wider than the screen`);
      assert.deepEqual(m.scrolling, [], `${view}: a box scrolls sideways`);
      assert.deepEqual(m.small.slice(0, 5), [], `${view}: text under ${MIN_TEXT} px`);
    }
    await showView(page, 'diagram');
    await screenshot(page, `phone-500-diagram-${lang}`);
  });

  test(`${lang}: 500 Pods at 1366 × 900: the table's commands and the map's names stay inside their boxes`, async (t) => {
    const page = await open(t, '', { viewport: { width: 1366, height: 900 }, locale });
    await dropDump(page);
    await showView(page, 'table');
    const commands = await page.evaluate(() => [...document.querySelectorAll('.boundary-table td.next')].flatMap((td) => {
      const cell = td.getBoundingClientRect();
      return [...td.querySelectorAll('code')].map((c) => ({ text: c.textContent.slice(0, 60), right: c.getBoundingClientRect().right, cell: cell.right }));
    }));
    assert.ok(commands.length > 20, `${commands.length} commands`);
    assert.deepEqual(commands.filter((c) => c.right > c.cell + 0.5).slice(0, 5), [], 'a command past its cell');
    const m = await page.evaluate(measure);
    assert.deepEqual(m.scrolling, [], 'nothing scrolls sideways');
    await screenshot(page, `desktop-500-table-${lang}`);
    await showView(page, 'map');
    const spill = await page.evaluate(() => [...document.querySelectorAll('.map-box')].flatMap((g) => {
      const box = g.querySelector('rect').getBoundingClientRect();
      return [...g.querySelectorAll('text')].map((x) => ({ text: x.textContent, right: x.getBoundingClientRect().right, box: box.right }));
    }));
    assert.ok(spill.length > 50, `${spill.length} texts`);
    assert.deepEqual(spill.filter((x) => x.right > x.box - 2).slice(0, 5), [], 'a name past its box');
    await screenshot(page, `desktop-500-map-${lang}`);
  });
}

test('the example link is not offered while the example is open', async (t) => {
  const page = await open(t, '#sample=image-pull', { viewport: { width: 1366, height: 900 } });
  assert.equal(await page.locator('.paste-help .example').count(), 0);
  assert.equal(await page.locator('.paste-help .open-guide').count(), 1, '"What should I paste?" stays');
  await page.getByRole('button', { name: 'Clear all' }).click();
  await page.locator('.paste-help .example').waitFor();
  await page.locator('.paste-help .example').click();
  await page.locator('.sample-note').first().waitFor();
  assert.equal(await page.locator('.paste-help .example').count(), 0);
});

test('the evidence viewer takes the focus; Esc and Back return it to the evidence that opened it', async (t) => {
  const page = await open(t, '#sample=image-pull', { viewport: { width: 1366, height: 900 } });
  const where = page.locator('.finding .evidence button.where').first();
  await where.click();
  await page.locator('.input-viewer').waitFor();
  await page.waitForFunction(() => document.activeElement?.matches('.input-viewer pre.lines'));
  // The focused lines scroll with the keyboard.
  const before = await page.locator('.input-viewer pre.lines').evaluate((e) => e.scrollTop);
  await page.keyboard.press('PageDown');
  await page.waitForFunction((b) => document.querySelector('.input-viewer pre.lines').scrollTop > b, before);
  await page.keyboard.press('Escape');
  await page.locator('.input-viewer').waitFor({ state: 'detached' });
  assert.equal(await where.evaluate((b) => b === document.activeElement), true, 'focus back on the evidence');
  // Back, from the keyboard: Tab from the lines reaches it.
  await where.click();
  await page.waitForFunction(() => document.activeElement?.matches('.input-viewer pre.lines'));
  await page.locator('.viewer-back').focus();
  await page.keyboard.press('Enter');
  await page.locator('.input-viewer').waitFor({ state: 'detached' });
  assert.equal(await where.evaluate((b) => b === document.activeElement), true);
});

test('in Chinese, evidence labels and format badges are Chinese; field paths stay as Kubernetes writes them', async (t) => {
  const page = await open(t, '#sample=image-pull', { viewport: { width: 1366, height: 900 }, locale: 'zh-CN' });
  const formats = await page.locator('.input-row .format').allTextContents();
  assert.deepEqual(formats, ['YAML', '事件表']);
  const paths = await page.locator('.finding .evidence .path').allTextContents();
  assert.ok(paths.some((p) => p.startsWith('事件表：Warning Failed Pod/tag-probe')), paths.join('\n'));
  assert.ok(paths.includes('status.containerStatuses[0].state.waiting.reason'), 'a field path as it is');
  assert.deepEqual(paths.filter((p) => /events table|terminal error|last line/.test(p)), []);
  await screenshot(page, 'zh-evidence-labels');
  // In English the engine's words are shown as they are.
  await page.getByRole('button', { name: 'English' }).click();
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.deepEqual(await page.locator('.input-row .format').allTextContents(), ['yaml', 'events-table']);
  assert.ok((await page.locator('.finding .evidence .path').allTextContents()).some((p) => p.startsWith('events table: ')));
});
