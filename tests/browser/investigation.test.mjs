// One incident at a time (issue 40, point 1). A paste over the box, a paste too large for it over
// what it held, or files dropped start a new investigation: the inputs that answered the old
// incident's next steps go with it, one click away ("Restore it"), and "Add these inputs to it"
// joins them back as new evidence, with "What changed" capped to what a person reads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, SCREENSHOTS, serveDist, launchBrowser, recordRequests, analysed, screenshot } from './harness.mjs';

const CRASH_EVENTS = readFileSync(join(ROOT, 'tests/fixtures/rules/container-crash-looping/fires-backoff-events-only.txt'), 'utf8');
const SAMPLE_EVENTS = readFileSync(join(ROOT, 'static/samples/image-pull/events.txt'), 'utf8');
const SAMPLE_POD = readFileSync(join(ROOT, 'static/samples/image-pull/pod.yaml'), 'utf8');
const COMMAND = 'kubectl get pod tag-probe -n exp-runtime -o yaml';

let server;
let browser;
let dump;

before(async () => {
  // A 9 MB `kubectl get -A -o yaml`, as in the report.
  const dir = mkdtempSync(join(tmpdir(), 'faultline-investigation-'));
  const file = join(dir, 'dump.yaml');
  execFileSync('python3', [join(ROOT, '../shared/tools/gen-dump.py'), '--pods', '480', '--format', 'yaml', '--out', file]);
  dump = readFileSync(file, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  server = await serveDist();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(t, locale = 'en-US') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const recorder = recordRequests(page, new URL(server.url).origin);
  await page.goto(server.url, { waitUntil: 'load' });
  await page.locator('.finding').first().waitFor();
  recorder.markLoaded();
  t.after(async () => {
    assert.deepEqual(recorder.problems(), [], 'no request after load');
    assert.deepEqual(pageErrors, [], 'no uncaught error in the page');
    await context.close();
  });
  return page;
}

const rows = (page) => page.locator('.input-row .source').allTextContents();
const rules = (page) => page.locator('.finding').evaluateAll((c) => c.map((f) => f.dataset.rule));

/** Pastes `text` as a user does, through the system clipboard and Ctrl+V; `over`: after Ctrl+A. */
async function paste(page, text, { over = false } = {}) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.locator('#paste').focus();
  if (over) await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
}

/** The image-pull sample's events pasted, then its Pod given with "Paste its output". */
async function incidentWithFollowUp(page) {
  await paste(page, SAMPLE_EVENTS);
  await page.locator('.finding[data-rule="image-pull-failed"]').waitFor();
  await analysed(page);
  const step = page.locator('.finding[data-rule="image-pull-failed"] .next li', { hasText: COMMAND });
  await step.locator('button.paste-output').click();
  await page.locator('#follow-up').fill(SAMPLE_POD);
  await page.locator('.what-changed').waitFor();
  await analysed(page);
  assert.deepEqual((await rows(page)).sort(), [COMMAND, 'paste'].sort());
}

for (const [locale, words] of [
  ['en-US', { previous: 'New incident: the previous one (2 inputs) is set aside.', restore: 'Restore it', join: 'Add these inputs to it', badge: 'next step' }],
  ['zh-CN', { previous: '新的事件：上一个事件（2 个输入）已暂存。', restore: '恢复它', join: '把这些输入加入其中', badge: '下一步' }],
]) {
  const lang = locale.slice(0, 2);
  test(`${lang}: a paste over the box after a follow-up is a new incident; the old one is restored in one click`, async (t) => {
    const page = await open(t, locale);
    await incidentWithFollowUp(page);
    // The follow-up is marked as belonging to the incident.
    const followUpRow = page.locator('.input-row.next-step-output');
    assert.equal(await followUpRow.locator('.source').textContent(), COMMAND);
    assert.equal(await followUpRow.locator('.follow-up-badge').textContent(), words.badge);

    await paste(page, CRASH_EVENTS, { over: true });
    await page.locator('.finding[data-rule="container-crash-looping"]').waitFor();
    await analysed(page);
    assert.deepEqual(await rows(page), ['paste'], 'the old follow-up went with its incident');
    assert.deepEqual(await rules(page), ['container-crash-looping'], 'the old incident\'s findings are gone');
    const body = await page.locator('body').innerText();
    assert.ok(!body.includes('tag-probe') && !body.includes('lab-worker2'), 'nothing of the old incident is on screen');
    assert.equal(await page.locator('.what-changed').count(), 0, 'a new incident is not new evidence of the old one');
    assert.equal(await page.locator('#follow-up').count(), 0);
    const note = page.locator('.previous-incident');
    assert.equal((await note.textContent()).replace(/\s+/g, ' ').trim(), `${words.previous} ${words.restore} · ${words.join}`);
    await screenshot(page, `investigation-new-${lang}`);

    // Restore: the old incident with its follow-up, diagnosed as before; the new one set aside.
    await note.locator('button.restore-previous').click();
    await page.locator('.finding[data-rule="image-pull-failed"]').waitFor();
    await analysed(page);
    assert.deepEqual((await rows(page)).sort(), [COMMAND, 'paste'].sort());
    assert.equal(await page.locator('#paste').inputValue(), SAMPLE_EVENTS);
    assert.equal(await page.locator('.input-row.next-step-output .source').textContent(), COMMAND);
    assert.ok((await rules(page)).every((r) => r !== 'container-crash-looping'));
    assert.equal(await page.locator('.previous-incident').count(), 1, 'the other one is one click away in turn');
    await screenshot(page, `investigation-restored-${lang}`);
  });
}

test('typing into the paste, or pasting below it, keeps the incident', async (t) => {
  const page = await open(t);
  await incidentWithFollowUp(page);
  await page.locator('#paste').focus();
  await page.keyboard.press('Control+End');
  await paste(page, `\n${CRASH_EVENTS}`);
  await page.locator('.finding[data-rule="container-crash-looping"]').waitFor();
  await analysed(page);
  await page.keyboard.type('# both\n');
  await analysed(page);
  assert.deepEqual((await rows(page)).sort(), [COMMAND, 'paste'].sort());
  assert.ok((await rules(page)).includes('image-pull-failed'));
  assert.equal(await page.locator('.previous-incident').count(), 0);
});

test('a 9 MB paste over the box replaces the incident; added to it, what changed is counted, not listed', async (t) => {
  const page = await open(t);
  await incidentWithFollowUp(page);
  assert.ok(dump.length > 8_500_000, `${dump.length} characters`);
  await paste(page, dump, { over: true });
  await page.locator('.input-row .source', { hasText: 'paste-1' }).waitFor({ timeout: 120_000 });
  await analysed(page, 180_000);
  assert.deepEqual(await rows(page), ['paste-1'], 'the box\'s text and the follow-up went with the old incident');
  assert.equal(await page.locator('#paste').inputValue(), '');
  assert.equal(await page.locator('.what-changed').count(), 0);
  assert.match(await page.locator('.previous-incident').textContent(), /\(2 inputs\)/);

  // "Add these inputs to it": the dump joins the old incident as new evidence of its report.
  await page.locator('.previous-incident button.join-previous').click();
  await page.locator('.what-changed').waitFor({ timeout: 180_000 });
  await analysed(page, 180_000);
  assert.deepEqual((await rows(page)).sort(), [COMMAND, 'paste', 'paste-1'].sort());
  assert.equal(await page.locator('.previous-incident').count(), 0);
  // Capped: the counts, the first eight by weight, "and N more" — not a screen of "Added:" lines.
  const lines = await page.locator('.what-changed li').evaluateAll((l) => l.map((li) => [li.dataset.change, li.textContent]));
  t.diagnostic(`what changed: ${lines.length} lines, ${JSON.stringify(lines[0])} … ${JSON.stringify(lines.at(-1))}`);
  assert.equal(lines.length, 10, JSON.stringify(lines));
  assert.equal(lines[0][0], 'counts');
  const [, total, added] = lines[0][1].match(/^(\d+) changes: .*?(\d+) added/) ?? [];
  assert.ok(Number(added) > 8 && Number(total) >= Number(added), lines[0][1]);
  assert.equal(lines.at(-1)[0], 'more');
  assert.equal(lines.at(-1)[1], `… and ${Number(total) - 8} more.`);
  await screenshot(page, 'investigation-joined-en');
  // The part a person sees first: the inputs (the next step's output marked) and What changed.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SCREENSHOTS, 'investigation-joined-top-en.png') });
});
