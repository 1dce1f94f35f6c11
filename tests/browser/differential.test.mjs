// The differential diagnosis in the Findings view (issue 39), in both languages: each card's
// confidence, "The command that decides" between two close causes with what each answer means,
// "Considered and ruled out" with the line of each, all as the engine's report says them (the native
// CLI's `--format json` for the same files); and the deciding command's output, pasted back through
// "Paste its output", decides: the box goes, the demoted cause is listed as ruled out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, serveDist, launchBrowser, recordRequests, analysed, screenshot } from './harness.mjs';

const FIXTURES = join(ROOT, 'tests/fixtures/differential');
const POD_AND_NODE = 'oom-killed-on-node-under-memory-pressure.yaml';
const NODE_EVENTS = 'oom-killed-node-describe-system-oom.txt';
const read = (name) => readFileSync(join(FIXTURES, name), 'utf8');

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

/** The engine's report for the fixtures, from the native CLI. */
function engineReport(files, lang) {
  const out = execFileSync('cargo', ['run', '-q', '--locked', '-p', 'faultline-cli', '--', 'analyze', '--format', 'json',
    '--lang', lang, ...files], { cwd: FIXTURES, encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(out);
}

async function open(t, locale) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const recorder = recordRequests(page, new URL(server.url).origin);
  await page.goto(server.url, { waitUntil: 'load' });
  await page.locator('.view').waitFor();
  recorder.markLoaded();
  t.after(async () => {
    assert.deepEqual(recorder.problems(), [], 'no foreign request and no request after load');
    assert.deepEqual(pageErrors, [], 'no uncaught error in the page');
    await context.close();
  });
  return page;
}

const text = async (locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim();

for (const [locale, words] of [
  ['en-US', { title: 'The command that decides', ruled: 'Considered and ruled out', shown: 'If it confirms finding', paste: 'Paste its output' }],
  ['zh-CN', { title: '起决定作用的命令', ruled: '已考虑并排除', shown: '如果输出证实了发现', paste: '粘贴它的输出' }],
]) {
  const lang = locale.slice(0, 2);
  test(`${lang}: confidence, the command that decides and what was ruled out, then its output decides`, async (t) => {
    const engine = engineReport([POD_AND_NODE], lang);
    assert.ok(engine.decide, 'the engine names a deciding command for these two causes');
    const page = await open(t, locale);
    await page.locator('#paste').fill(read(POD_AND_NODE));
    await page.locator('.decide').waitFor();
    await analysed(page);

    // Every card says how sure it is, as the engine does.
    const cards = await page.locator('.finding').evaluateAll((cs) => cs.map((c) => [c.dataset.rule, c.querySelector('.confidence')?.dataset.confidence]));
    assert.deepEqual(cards, engine.findings.map((f) => [f.rule, f.confidence]));
    const notes = await page.locator('.finding .confidence-note').allInnerTexts();
    assert.deepEqual(notes, engine.findings.map((f) => f.confidence_note));

    // The decider: its title, the command, what each answer means, in the page's language.
    const decide = page.locator('.decide');
    assert.equal(await decide.locator('h3').innerText(), words.title);
    assert.equal(await text(decide.locator('.decide-command code')), engine.decide.command.replace(/\s+/g, ' '));
    assert.equal(await decide.locator('.if-shown').innerText(), engine.decide.if_shown);
    assert.equal(await decide.locator('.if-not').innerText(), engine.decide.if_not);
    assert.ok((await decide.locator('dt').first().innerText()).startsWith(words.shown));

    // Considered and ruled out: one item per entry, each boundary and line as the engine has them.
    const ruled = page.locator('.ruled-out');
    assert.equal(await ruled.locator('h3').innerText(), words.ruled);
    const items = await ruled.locator('li').evaluateAll((ls) => ls.map((l) => [l.dataset.boundary, l.querySelector('.because').innerText]));
    assert.deepEqual(items, engine.ruled_out.map((r) => [r.boundary, r.because]));
    assert.ok(items.length >= 1);
    await screenshot(page, `differential-decide-${lang}`);

    // "Paste its output" of the deciding command: its answer (SystemOOM on the node) decides.
    assert.equal(await decide.locator('button.paste-output').innerText(), words.paste);
    await decide.locator('button.paste-output').click();
    await page.locator('#follow-up').fill(read(NODE_EVENTS));
    await page.locator('.what-changed').waitFor();
    await analysed(page);
    const decided = engineReport([POD_AND_NODE, NODE_EVENTS], lang);
    assert.equal(decided.decide, undefined);
    assert.equal(await page.locator('.decide').count(), 0, 'nothing left to decide');
    assert.equal(await page.locator('.finding').first().getAttribute('data-rule'), 'node-under-pressure');
    const oom = decided.ruled_out.find((r) => r.finding?.rule === 'container-oom-killed');
    assert.ok(oom, 'the engine rules the OOM kill out');
    const after = await page.locator('.ruled-out li .because').allInnerTexts();
    assert.ok(after.includes(oom.because), `${oom.because} in ${after.join(' | ')}`);
    await screenshot(page, `differential-decided-${lang}`);
  });
}
