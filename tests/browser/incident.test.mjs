// An incident-sized report (issue 27): a 500-Pod dump (`gen-dump.py --pods 500`, 17 nodes) dropped as
// a file. The headline counts the independent faults, the summary shows each boundary's most severe
// root cause without scrolling, findings of one rule and workload are one group, one filter narrows
// every view, `/` searches, the diagram's kubelets never overlap, and commands wrap at their spaces.
// Every expected number is computed here from the native CLI's JSON report of the same file.
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
let report;

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-incident-'));
  const file = join(dir, 'dump-500.yaml');
  execFileSync('python3', [join(ROOT, '../shared/tools/gen-dump.py'), '--pods', '500', '--format', 'yaml', '--out', file]);
  dump = readFileSync(file, 'utf8');
  report = JSON.parse(execFileSync('cargo', ['run', '-q', '--locked', '--manifest-path', join(ROOT, 'Cargo.toml'),
    '-p', 'faultline-cli', '--', 'analyze', '--format', 'json', file], { encoding: 'utf8', maxBuffer: 256 << 20 }));
  rmSync(dir, { recursive: true, force: true });
  server = await serveDist();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const refKey = (o) => `${o.kind}/${o.namespace ?? ''}/${o.name}`;
const weighty = (f) => f.severity === 'error' || f.severity === 'warning';
/** What two findings share to be one card: rule, severity, boundary, cause, subject kind, the one
 * workload they affect (view_model::summary::groups, computed again from the JSON). */
function groupKey(f) {
  if (f.affects?.length !== 1 || refKey(f.affects[0]) === refKey(f.subject)) return null;
  const cause = f.explained_by ? `${f.explained_by.rule}@${refKey(f.explained_by.subject)}` : '';
  return [f.rule, f.severity, f.boundary, cause, f.subject.kind, refKey(f.affects[0])].join('|');
}
function groupCount(findings) {
  const keys = new Set();
  let alone = 0;
  for (const f of findings) {
    const k = groupKey(f);
    if (k) keys.add(k); else alone += 1;
  }
  return keys.size + alone;
}

async function openWithDump(t, { lang = 'en-US', width = 1280, height = 900 } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, locale: lang });
  t.after(() => context.close());
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  t.after(() => assert.deepEqual(errors, []));
  await page.goto(server.url, { waitUntil: 'load' });
  await page.locator('.finding').first().waitFor();
  const dataTransfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dump-500.yaml', { type: 'application/x-yaml' }));
    return dt;
  }, dump);
  await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer });
  await page.locator('.input-row .source', { hasText: 'dump-500.yaml' }).waitFor();
  await analysed(page, 180_000);
  return page;
}

test('500 Pods: the headline counts the independent faults and the summary shows each boundary\'s root cause unscrolled', async (t) => {
  const page = await openWithDump(t);
  const roots = report.findings.filter((f) => weighty(f) && !f.explained_by);
  const faults = groupCount(roots);
  assert.ok(faults > 1 && faults < roots.length, `${faults} faults from ${roots.length} root findings`);
  // At several boundaries: the headline counts them, and names the most severe boundary as that,
  // as the CLI's first finding says, never as the whole incident's (issue 40).
  const boundaryCount = new Set(roots.map((f) => f.boundary)).size;
  assert.ok(boundaryCount > 1, `${boundaryCount} boundaries`);
  assert.equal(await page.locator('.headline .fault-count').textContent(), `${faults} independent faults at ${boundaryCount} boundaries.`);
  const top = report.findings.find(weighty);
  assert.match(await page.locator('.headline').textContent(), new RegExp(`The most severe is at the .*${top.boundary}`));
  assert.doesNotMatch(await page.locator('.headline').textContent(), /The evidence points to/);

  // One line per boundary with a root cause, in report order, each naming that boundary's first root.
  const boundaries = [...new Set(roots.map((f) => f.boundary))];
  const lines = await page.locator('.summary-boundary').evaluateAll((ls) => ls.map((l) => ({
    boundary: l.dataset.boundary, rule: l.querySelector('.top-cause code').textContent,
    bottom: l.querySelector('.top-cause').getBoundingClientRect().bottom })));
  assert.deepEqual(lines.map((l) => l.boundary), boundaries);
  for (const l of lines) {
    assert.equal(l.rule, roots.find((f) => f.boundary === l.boundary).rule, l.boundary);
    assert.ok(l.bottom <= 900, `${l.boundary}'s root cause is on the first screen (bottom ${l.bottom})`);
  }
  // The rules by count, as many as the report has rules with errors or warnings.
  const rules = new Set(report.findings.filter(weighty).map((f) => f.rule));
  assert.equal(await page.locator('.summary-rules .rule-count').count(), rules.size);
  await screenshot(page, 'incident-500-summary-en');

  // A boundary's top cause is a click away: its card is brought into view, selected.
  await page.locator('.summary-boundary[data-boundary="node-runtime"] .top-cause').click();
  const selected = page.locator('.finding.selected');
  await selected.waitFor();
  assert.equal(await selected.getAttribute('data-boundary'), 'node-runtime');
});

test('500 Pods: findings of one rule and workload are one card, the members a click away', async (t) => {
  const page = await openWithDump(t);
  const members = new Map();
  for (const f of report.findings) {
    const k = groupKey(f);
    if (k) members.set(k, (members.get(k) ?? 0) + 1);
  }
  const [key, count] = [...members].find(([, n]) => n > 2);
  const [rule, , , , , owner] = key.split('|');
  const group = page.locator('.finding-group', { has: page.locator('.group-title code', { hasText: rule }) })
    .filter({ hasText: owner.split('/').pop() }).first();
  assert.equal(await group.getAttribute('data-members'), String(count));
  assert.equal(await group.locator('.finding').count(), 1, 'closed: the first member only');
  await group.locator('.group-toggle').click();
  assert.equal(await group.locator('.finding').count(), count, 'open: every member');
  // Fewer cards than findings: groups take one place each.
  const shown = await page.locator('.findings > .finding, .finding-group').count();
  assert.ok(shown <= 25 + 1, `${shown} places on the first page`);
});

test('500 Pods: "considered and ruled out" draws its first 25 items, the rest a click away, in the engine\'s order', async (t) => {
  const page = await openWithDump(t);
  const engine = report.ruled_out.map((r) => [r.boundary, r.because]);
  assert.ok(engine.length > 50, `${engine.length} items ruled out: more than two pages`);
  const items = () => page.locator('.ruled-out li').evaluateAll((ls) => ls.map((l) => [l.dataset.boundary, l.querySelector('.because').innerText]));
  assert.deepEqual(await items(), engine.slice(0, 25));
  const more = page.locator('.ruled-out .show-more');
  assert.equal(await more.innerText(), `Show 25 more (${engine.length - 25} not shown)`);
  await more.click();
  assert.deepEqual(await items(), engine.slice(0, 50));
  while (await more.count()) await more.click();
  assert.deepEqual(await items(), engine, 'every item once all are shown');
});

test('500 Pods: one filter narrows every view, and / searches', async (t) => {
  const page = await openWithDump(t);
  const total = report.findings.length;
  assert.equal(await page.locator('.filter-count').textContent(), `${total} findings`);

  // A namespace: the findings about it or a workload in it.
  const ns = report.findings.find((f) => f.subject.namespace)?.subject.namespace;
  const inNs = report.findings.filter((f) => [f.subject, ...(f.affects ?? [])].some((o) => o.namespace === ns)).length;
  await page.locator('.filter-bar .f-namespace select').selectOption(ns);
  assert.equal(await page.locator('.filter-count').textContent(), `${inNs} of ${total} findings`);
  const subjects = await page.locator('.finding .subject').allTextContents();
  assert.ok(subjects.length > 0);

  // The same filter holds in the table: only the boundaries of those findings are filled.
  const nsBoundaries = new Set(report.findings
    .filter((f) => [f.subject, ...(f.affects ?? [])].some((o) => o.namespace === ns)).map((f) => f.boundary));
  await page.locator('#tab-table').click();
  const filled = await page.locator('.boundary-row.evidenced').evaluateAll((rs) => rs.map((r) => r.dataset.boundary));
  assert.deepEqual(new Set(filled), nsBoundaries);
  // Rows with evidence come before the quiet ones.
  const order = await page.locator('.boundary-row').evaluateAll((rs) => rs.map((r) => r.classList.contains('evidenced')));
  assert.deepEqual(order, [...order].sort((a, b) => Number(b) - Number(a)));
  await page.locator('.clear-filter').click();
  assert.equal(await page.locator('.filter-count').textContent(), `${total} findings`);

  // `/` from anywhere outside a field puts the caret in the search box; words narrow the findings.
  await page.locator('#tab-findings').click();
  await page.locator('h2').first().click();
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'search');
  await page.keyboard.type('node-not-ready');
  await page.waitForFunction((total) => !document.querySelector('.filter-count').textContent.startsWith(`${total} `), total);
  assert.equal(await page.locator('#search').inputValue(), 'node-not-ready', await page.locator('.filter-count').textContent());
  await page.waitForFunction(() => !document.querySelector('.findings[aria-busy="true"]') && document.querySelector('.finding'));
  // Every finding left says those words; the Node's own finding is among them.
  const cards = await page.locator('.finding').evaluateAll((cs) => cs.map((c) => [c.dataset.rule, c.textContent.toLowerCase()]));
  assert.ok(cards.some(([rule]) => rule === 'node-not-ready'), JSON.stringify(cards.map(([r]) => r)));
  assert.ok(cards.length < total);
  // The diagram lights only what the filter keeps: the Node's kubelet, not the containers.
  await page.locator('#tab-diagram').click();
  const lit = await page.locator('.part.lit').evaluateAll((ps) => ps.map((p) => p.dataset.part));
  assert.ok(lit.includes('kubelet') && !lit.includes('containers'), JSON.stringify(lit));
});

test('17 nodes: at most four kubelet boxes, nothing in the diagram overlaps', async (t) => {
  const page = await openWithDump(t);
  await page.locator('#tab-diagram').click();
  const boxes = await page.locator('.architecture .part rect').evaluateAll((rs) => rs.map((r) => {
    const b = r.getBoundingClientRect();
    return { part: r.parentElement.dataset.part, node: r.parentElement.dataset.node ?? null, x: b.x, y: b.y, w: b.width, h: b.height };
  }));
  const kubelets = boxes.filter((b) => b.part === 'kubelet');
  assert.ok(kubelets.length >= 2 && kubelets.length <= 4, JSON.stringify(kubelets));
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
      assert.ok(apart, `${a.part}/${a.node} overlaps ${b.part}/${b.node}`);
    }
  }
  // The collapsed box counts the rest, and selecting it lists their findings.
  const more = page.locator('.part[data-node="…"]');
  const text = await more.textContent();
  // The nodes the report names: Node objects and the nodes findings are about.
  const nodes = new Set([...report.objects.filter((o) => o.ref.kind === 'Node').map((o) => o.ref.name),
    ...report.findings.filter((f) => f.node).map((f) => f.node),
    ...report.timeline.filter((e) => e.subject.kind === 'Node').map((e) => e.subject.name)]).size;
  const named = kubelets.filter((k) => k.node && k.node !== '…').length;
  const hidden = nodes - named;
  assert.match(text, new RegExp(`${hidden} more`));
  // No box's words run out of it.
  const spill = await page.locator('.architecture .part').evaluateAll((ps) => ps.filter((p) => {
    const box = p.querySelector('rect').getBoundingClientRect();
    return [...p.querySelectorAll('text')].some((t) => {
      const r = t.getBoundingClientRect();
      return r.left < box.left - 1 || r.right > box.right + 1;
    });
  }).map((p) => `${p.dataset.part}/${p.dataset.node}`));
  assert.deepEqual(spill, []);
  await screenshot(page, 'incident-500-diagram-en');
});

test('Chinese: the summary and the filter in Chinese, names and rules as they are', async (t) => {
  const page = await openWithDump(t, { lang: 'zh-CN' });
  const roots = report.findings.filter((f) => weighty(f) && !f.explained_by);
  const boundaryCount = new Set(roots.map((f) => f.boundary)).size;
  assert.equal(await page.locator('.headline .fault-count').textContent(), `${boundaryCount} 个边界上有 ${groupCount(roots)} 个相互独立的故障。`);
  assert.match(await page.locator('.headline').textContent(), /最严重的在/);
  assert.match(await page.locator('.summary-faults').textContent(), /个边界上有 \d+ 个相互独立的故障/);
  assert.equal(await page.locator('.filter-count').textContent(), `共 ${report.findings.length} 项发现`);
  await screenshot(page, 'incident-500-summary-zh');
});

test('commands wrap at their spaces, never inside a word', async (t) => {
  const context = await browser.newContext({ viewport: { width: 1024, height: 900 } });
  t.after(() => context.close());
  const page = await context.newPage();
  await page.goto(`${server.url}#sample=image-pull`, { waitUntil: 'load' });
  await page.locator('.finding .next code').first().waitFor();
  const split = await page.locator('.finding .next code').evaluateAll((codes) => {
    const out = [];
    for (const code of codes) {
      // The command's text is intact (a selection copies it as it is)...
      if (code.textContent !== code.closest('li').querySelector('code').textContent) out.push('text');
      // ...and each word narrower than its box sits on one line.
      for (const word of code.querySelectorAll('span')) {
        const rects = [...word.getClientRects()].filter((r) => r.width > 0);
        if (word.getBoundingClientRect().width < code.parentElement.clientWidth - 40 && rects.length > 1) out.push(word.textContent);
      }
    }
    return out;
  });
  const texts = await page.locator('.finding .next code').allTextContents();
  assert.ok(texts.some((c) => c.includes('-n exp-runtime')), JSON.stringify(texts));
  assert.deepEqual(split, []);
});

test('evidence far down the report opens beside it: the page stays, the line is in view, Back returns', async (t) => {
  const page = await openWithDump(t);
  const card = page.locator('.findings .finding').nth(20);
  const where = card.locator('.evidence button.where').first();
  await where.scrollIntoViewIfNeeded();
  const before = await page.evaluate(() => window.scrollY);
  assert.ok(before > 3000, `the 21st card is far down (${before})`);
  await where.click();
  const line = page.locator('.input-viewer .line.highlight');
  await line.waitFor();
  // The page did not jump to the top, and the highlighted line is inside the viewer's visible box.
  assert.equal(await page.evaluate(() => window.scrollY), before);
  const inBox = await page.evaluate(() => {
    const box = document.querySelector('.input-viewer .lines').getBoundingClientRect();
    const mark = document.querySelector('.input-viewer .line.highlight').getBoundingClientRect();
    return mark.top >= box.top && mark.bottom <= box.bottom && box.bottom <= window.innerHeight;
  });
  assert.ok(inBox, 'the cited line is visible');
  await screenshot(page, 'incident-500-viewer-en');
  await page.locator('.viewer-back').click();
  await page.locator('.input-viewer').waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => window.scrollY), before);
  assert.equal(await where.evaluate((b) => b === document.activeElement), true, 'focus back on the evidence');
});

test('a phone (390 × 844): one column, nothing wider than the screen in any view', async (t) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  t.after(() => context.close());
  const page = await context.newPage();
  for (const view of ['findings', 'diagram', 'timeline', 'table', 'map', 'rules']) {
    await page.goto(`${server.url}#sample=readiness&view=${view}`, { waitUntil: 'load' });
    await page.locator(`.view[data-view="${view}"]`).waitFor();
    const wide = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      // Wider than the screen, outside boxes that scroll on their own (the table, the tabs).
      out: [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > 391)
        .filter((e) => !e.closest('.boundary-table-wrap, .views, .tl-viewport, .lines, svg'))
        .map((e) => e.tagName + '.' + (e.className?.baseVal ?? e.className)).slice(0, 5),
    }));
    assert.equal(wide.scroll, 390, `${view}: ${JSON.stringify(wide)}`);
    assert.deepEqual(wide.out, [], view);
    if (view === 'findings' || view === 'timeline') await screenshot(page, `phone-${view}-en`);
  }
});

test('keyboard: the focus follows the tab, Home and End, number keys open views, a skip link leads to the diagnosis', async (t) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  t.after(() => context.close());
  const page = await context.newPage();
  await page.goto(`${server.url}#sample=image-pull`, { waitUntil: 'load' });
  await page.locator('.finding').first().waitFor();
  // The first Tab reaches the skip link; Enter puts the focus on the results, past the inputs.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip-link');
  assert.ok(await page.locator('.skip-link').evaluate((e) => e.getBoundingClientRect().top >= 0), 'visible when focused');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'results');
  // The selected tab is the tab stop; the arrows, Home and End move the view and the focus together.
  await page.locator('#tab-findings').focus();
  const focused = () => page.evaluate(() => document.activeElement?.id);
  await page.keyboard.press('ArrowRight');
  await page.locator('.view[data-view="diagram"]').waitFor();
  assert.equal(await focused(), 'tab-diagram');
  await page.keyboard.press('End');
  await page.locator('.view[data-view="rules"]').waitFor();
  assert.equal(await focused(), 'tab-rules');
  await page.keyboard.press('Home');
  await page.locator('.view[data-view="findings"]').waitFor();
  assert.equal(await focused(), 'tab-findings');
  // Number keys open views from anywhere outside a text field, and type into one as usual.
  await page.locator('h2').first().click();
  await page.keyboard.press('4');
  await page.locator('.view[data-view="table"]').waitFor();
  await page.locator('#search').focus();
  await page.keyboard.press('3');
  assert.equal(await page.locator('.view').getAttribute('data-view'), 'table');
  assert.equal(await page.locator('#search').inputValue(), '3');
  // Every focused control shows it.
  const outline = await page.locator('#search').evaluate((e) => getComputedStyle(e).outlineStyle);
  assert.notEqual(outline, 'none');
});
