// A newcomer's first paste, and the evidence loop of an incident (issue 25): own input replaces the
// sample (with an undo), the sample is marked, the paste box says what it reads, the input column
// keeps its width, a next step's output pasted back says what changed, "What should I paste?", and
// an inconclusive report says what was not read.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, serveDist, launchBrowser, recordRequests, analysed, screenshot } from './harness.mjs';

// A real-format events list of a crash-looping Pod (the rule's fixture; names unlike the sample's).
const CRASH_EVENTS = readFileSync(join(ROOT, 'tests/fixtures/rules/container-crash-looping/fires-backoff-events-only.txt'), 'utf8');
const SAMPLE_EVENTS = readFileSync(join(ROOT, 'static/samples/image-pull/events.txt'), 'utf8');
const SAMPLE_POD = readFileSync(join(ROOT, 'static/samples/image-pull/pod.yaml'), 'utf8');
// The first nine lines of a real paste (../shared/corpus/wild/10, verbatim): a node's describe
// fragment, its `Allocated resources:` table without the object.
const FRAGMENT = readFileSync(join(ROOT, '../shared/corpus/wild/10-node-diskpressure-describe-node-fragment/input.txt'), 'utf8')
  .split('\n').slice(0, 9).join('\n') + '\n';

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

async function open(t, { locale = 'en-US', width = 1280, hash = '', permissions = [] } = {}) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale, permissions });
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

const bodyText = (page) => page.locator('body').innerText();
const rows = (page) => page.locator('.input-row .source').allTextContents();

for (const [locale, words] of [
  ['en-US', { note: 'You are looking at a sample incident.', removed: 'Sample removed', restore: 'restore' }],
  ['zh-CN', { note: '你正在查看一个示例故障。', removed: '已移除示例', restore: '恢复' }],
]) {
  const lang = locale.slice(0, 2);
  test(`${lang}: the first paste replaces the sample and is diagnosed alone; the sample comes back with restore`, async (t) => {
    const page = await open(t, { locale });
    await page.locator('.finding').first().waitFor();
    assert.equal(await page.locator('.inputs .sample-note strong').textContent(), words.note);
    assert.equal(await page.locator('.results .sample-note').textContent(), words.note);
    await screenshot(page, `newcomer-sample-marked-${lang}`);
    await page.locator('#paste').fill(CRASH_EVENTS);
    await page.locator('.finding[data-rule="container-crash-looping"]').waitFor();
    await analysed(page);
    assert.deepEqual(await rows(page), ['paste'], 'only the paste is analysed');
    const text = await bodyText(page);
    for (const name of ['tag-probe', 'exp-runtime', 'pod.yaml', 'events.txt', 'lab-worker2']) {
      assert.ok(!text.includes(name), `the sample's ${name} is nowhere on the page`);
    }
    assert.deepEqual(await page.locator('.finding').evaluateAll((c) => c.map((f) => f.dataset.rule)), ['container-crash-looping']);
    assert.equal(await page.locator('.sample-note').count(), 0, 'no longer marked as a sample');
    assert.match(await page.locator('.sample-removed').textContent(), new RegExp(`^${words.removed} — ${words.restore}$`));
    await screenshot(page, `newcomer-sample-removed-${lang}`);
    // Undo: the sample as it was.
    await page.locator('.sample-removed button.restore').click();
    await page.locator('.finding[data-rule="image-pull-failed"]').waitFor();
    assert.deepEqual((await rows(page)).sort(), ['events.txt', 'pod.yaml']);
    assert.equal(await page.locator('#paste').inputValue(), '');
    assert.equal(await page.locator('.inputs .sample-note strong').textContent(), words.note);
    assert.equal(await page.locator('.sample-removed').count(), 0);
  });
}

test('a dropped file and a picked file replace the sample too', async (t) => {
  const page = await open(t);
  const dataTransfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'crash-events.txt', { type: 'text/plain' }));
    return dt;
  }, CRASH_EVENTS);
  await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer });
  await page.locator('.finding[data-rule="container-crash-looping"]').waitFor();
  await analysed(page);
  assert.deepEqual(await rows(page), ['crash-events.txt']);
  assert.ok(!(await bodyText(page)).includes('tag-probe'));
  await page.locator('.sample-removed button.restore').click();
  await page.locator('.finding[data-rule="image-pull-failed"]').waitFor();
  await page.getByLabel('Choose files to analyse').setInputFiles({ name: 'crash.txt', mimeType: 'text/plain', buffer: Buffer.from(CRASH_EVENTS) });
  await page.locator('.finding[data-rule="container-crash-looping"]').waitFor();
  await analysed(page);
  assert.deepEqual(await rows(page), ['crash.txt']);
});

test('choosing a sample while the user has input asks first, and a refusal keeps the input', async (t) => {
  const page = await open(t);
  await page.locator('#paste').fill(CRASH_EVENTS);
  await page.locator('.finding[data-rule="container-crash-looping"]').waitFor();
  const asked = [];
  page.once('dialog', (d) => { asked.push(d.message()); d.dismiss(); });
  await page.locator('#sample').selectOption('healthy');
  assert.equal(asked.length, 1);
  assert.match(asked[0], /Your own input is set aside: "Restore it" under the paste box brings it back/);
  assert.equal(await page.locator('#paste').inputValue(), CRASH_EVENTS);
  assert.equal(await page.locator('#sample').inputValue(), '', 'the menu still says: your own input');
  assert.equal(await page.locator('.finding[data-rule="container-crash-looping"]').count(), 1);
  page.once('dialog', (d) => { asked.push(d.message()); d.accept(); });
  await page.locator('#sample').selectOption('healthy');
  await page.locator('.inputs .sample-note').waitFor();
  assert.equal(asked.length, 2);
  assert.equal(await page.locator('#paste').inputValue(), '');
  assert.equal(await page.locator('#sample').inputValue(), 'healthy');
  // Set aside, not lost (issue 40).
  assert.match(await page.locator('.previous-incident').textContent(), /\(1 input\)/);
  // With no input of the user's, a sample opens without a question.
  await page.locator('#sample').selectOption('quota-403');
  await page.locator('.finding[data-boundary="quota-admission"]').first().waitFor();
  assert.equal(asked.length, 2);
});

test('the paste box says what it reads, and its example link opens a sample', async (t) => {
  for (const [locale, reads, example] of [
    ['en-US', ['describe', 'get -o yaml|json', 'get tables', 'events', 'kubectl errors and logs', 'several commands in one paste'], 'Open an example incident'],
    ['zh-CN', ['describe', 'get -o yaml|json', 'get 表格', '事件', 'kubectl 的报错和日志', '一次粘贴多条命令的输出'], '打开一个示例故障'],
  ]) {
    const page = await open(t, { locale });
    const text = await page.locator('#paste-reads').textContent();
    for (const word of reads) assert.ok(text.includes(word), `${locale}: ${word} in ${text}`);
    assert.equal(await page.locator('#paste').getAttribute('aria-describedby'), 'paste-reads');
    await page.locator('button.clear').click();
    await page.locator('.finding').first().waitFor({ state: 'detached' });
    await screenshot(page, `newcomer-empty-${locale.slice(0, 2)}`);
    await page.getByRole('button', { name: example }).click();
    await page.locator('.finding[data-rule="image-pull-failed"]').waitFor();
    assert.equal(await page.locator('#sample').inputValue(), 'image-pull');
  }
});

test('the input column keeps its width in every view, at 1024 px and wider, in both languages', async (t) => {
  const views = ['findings', 'diagram', 'timeline', 'table', 'map', 'rules'];
  for (const locale of ['en-US', 'zh-CN']) {
    for (const width of [1024, 1280, 1600]) {
      const page = await open(t, { locale, width, hash: '#sample=readiness' });
      const widths = {};
      for (const view of views) {
        await page.locator(`.view-tab[data-view="${view}"]`).click();
        await page.locator(`.view[data-view="${view}"]`).waitFor();
        widths[view] = await page.evaluate(() => ({
          column: document.querySelector('.inputs').getBoundingClientRect().width,
          paste: document.querySelector('#paste').getBoundingClientRect().width,
        }));
      }
      const columns = new Set(Object.values(widths).map((w) => Math.round(w.column)));
      const pastes = new Set(Object.values(widths).map((w) => Math.round(w.paste)));
      assert.equal(columns.size, 1, `${locale} ${width}: ${JSON.stringify(widths)}`);
      assert.equal(pastes.size, 1, `${locale} ${width}: ${JSON.stringify(widths)}`);
      assert.ok([...columns][0] >= 300, `${locale} ${width}: a usable column (${[...columns][0]} px)`);
      if (width === 1024) await screenshot(page, `newcomer-layout-1024-rules-${locale.slice(0, 2)}`);
      await page.context().close();
    }
  }
});

for (const [locale, words] of [
  ['en-US', { paste: 'Paste its output', output: 'Output of ', confirmed: 'Confirmed: image-pull-failed about Pod exp-runtime/tag-probe', answered: 'Answered for image-pull-failed about Pod exp-runtime/tag-probe', what: 'What changed' }],
  ['zh-CN', { paste: '粘贴它的输出', output: '命令输出：', confirmed: '已证实：关于 Pod exp-runtime/tag-probe 的 image-pull-failed', answered: '关于 Pod exp-runtime/tag-probe 的 image-pull-failed，新的证据回答了', what: '有什么变化' }],
]) {
  const lang = locale.slice(0, 2);
  test(`${lang}: a next step's output pasted back updates the report and says what changed`, async (t) => {
    const page = await open(t, { locale });
    await page.locator('#paste').fill(SAMPLE_EVENTS);
    await page.locator('.finding[data-rule="image-pull-failed"]').waitFor();
    await analysed(page);
    const card = page.locator('.finding[data-rule="image-pull-failed"]');
    const cannotBefore = await card.locator('.cannot li').allTextContents();
    const command = 'kubectl get pod tag-probe -n exp-runtime -o yaml';
    const step = card.locator('.next li', { hasText: command });
    assert.equal(await step.locator('button.paste-output').textContent(), words.paste);
    await step.locator('button.paste-output').click();
    const label = page.locator('.follow-up label');
    assert.equal(await label.textContent(), words.output + command);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'follow-up', 'the input is focused');
    await page.locator('#follow-up').fill(SAMPLE_POD);
    await page.locator('.what-changed').waitFor();
    await analysed(page);
    assert.deepEqual((await rows(page)).sort(), [command, 'paste'].sort(), 'the output is an input named after its command');
    assert.equal(await page.locator('.what-changed strong').textContent(), words.what);
    const changes = await page.locator('.what-changed li').evaluateAll((l) => l.map((li) => [li.dataset.change, li.textContent]));
    assert.equal(changes[0][0], 'confirmed');
    assert.ok(changes[0][1].startsWith(words.confirmed), changes[0][1]);
    assert.equal(changes[1][0], 'answered');
    assert.ok(changes[1][1].startsWith(words.answered), changes[1][1]);
    // The answered entry is the one the events alone could not establish, and the card no longer lists it.
    const answered = cannotBefore.find((c) => changes[1][1].includes(c));
    assert.ok(answered, `${changes[1][1]} quotes one of ${cannotBefore.join(' | ')}`);
    assert.ok(!(await card.locator('.cannot li').allTextContents()).includes(answered));
    // The report cites the new input.
    assert.ok((await card.locator('.evidence li').allTextContents()).some((e) => e.startsWith(`${command}:`)));
    await screenshot(page, `newcomer-what-changed-${lang}`);
  });
}

test('a file dropped beside the user\'s input is a new incident; added to the old one, it says what it changed', async (t) => {
  const page = await open(t);
  await page.locator('#paste').fill(SAMPLE_EVENTS);
  await page.locator('.finding[data-rule="image-pull-failed"]').waitFor();
  await analysed(page);
  assert.equal(await page.locator('.what-changed').count(), 0, 'the first paste has nothing to compare with');
  const dataTransfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'pod.yaml', { type: 'application/yaml' }));
    return dt;
  }, SAMPLE_POD);
  await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer });
  await page.locator('.previous-incident').waitFor();
  await analysed(page);
  assert.deepEqual(await rows(page), ['pod.yaml'], 'issue 40: a drop starts a new incident');
  await page.locator('.previous-incident button.join-previous').click();
  await page.locator('.what-changed li[data-change="confirmed"]').waitFor();
  assert.deepEqual((await rows(page)).sort(), ['paste', 'pod.yaml']);
  assert.match(await page.locator('.what-changed li[data-change="confirmed"]').textContent(), /^Confirmed: image-pull-failed about Pod exp-runtime\/tag-probe/);
  assert.equal(await page.locator('.what-changed li[data-change="answered"]').count(), 1);
  // A crash-loop's events dropped next, and added: a finding added.
  const more = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'shop-events.txt', { type: 'text/plain' }));
    return dt;
  }, CRASH_EVENTS);
  await analysed(page);
  await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer: more });
  await page.locator('.previous-incident').waitFor();
  await page.locator('.previous-incident button.join-previous').click();
  await page.locator('.what-changed li[data-change="added"]').waitFor();
  assert.match(await page.locator('.what-changed li[data-change="added"]').textContent(), /^Added: container-crash-looping about Pod shop\/api-6c7d8f9b5-mm2pq/);
});

// Issue 40, point 2: a `kubectl get pods` table without a namespace column (the engine's names.rs
// input): the next steps write `'<namespace>'`, shown as what to fill in, selected and copied with
// the command as it is, and the finding says the input does not state it.
const NO_NAMESPACE = '$ kubectl get pods\nNAME                        READY   STATUS             RESTARTS      AGE\napi-6c7d8f9b5-mm2pq         0/1     CrashLoopBackOff   7 (2m ago)    14m\n';
test('a name the input does not state is a placeholder: marked, and the command selected and copied as it is', async (t) => {
  const page = await open(t, { permissions: ['clipboard-read', 'clipboard-write'] });
  await page.locator('#paste').fill(NO_NAMESPACE);
  const card = page.locator('.finding[data-rule="container-crash-looping"]');
  await card.waitFor();
  await analysed(page);
  const steps = await card.locator('.next li code').allTextContents();
  assert.ok(steps.length > 0 && steps.every((s) => s.includes("-n '<namespace>'") && !s.includes('-n default')), steps.join('\n'));
  const step = card.locator('.next li').first();
  const placeholder = step.locator('.placeholder');
  assert.equal(await placeholder.count(), 1);
  assert.equal(await placeholder.textContent(), "'<namespace>'");
  assert.ok((await card.locator('.cannot li').allTextContents()).some((c) => /does not state its namespace/.test(c)));
  assert.equal(await placeholder.evaluate((e) => getComputedStyle(e).fontStyle), 'italic');
  await placeholder.click();
  assert.equal(await page.evaluate(() => window.getSelection().toString()), steps[0], 'a click selects the whole command');
  await step.locator('button.copy').click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), steps[0]);
  await screenshot(page, 'newcomer-placeholder-en');
});

for (const [locale, title, redact] of [
  ['en-US', 'What should I paste?', /redact it/],
  ['zh-CN', '我该粘贴什么？', /请先脱敏/],
]) {
  const lang = locale.slice(0, 2);
  test(`${lang}: "What should I paste?" from the empty state: every symptom's commands, copied`, async (t) => {
    const page = await open(t, { locale, permissions: ['clipboard-read', 'clipboard-write'] });
    await page.locator('button.clear').click();
    await page.locator('.findings .open-guide').click();
    const guide = page.locator('.paste-guide');
    await guide.waitFor();
    assert.equal(await guide.locator('h2').textContent(), title);
    assert.match(await guide.locator('.guide-redact').textContent(), redact);
    const ids = await guide.locator('.guide-symptoms .symptom').evaluateAll((b) => b.map((x) => x.dataset.entry));
    assert.deepEqual(ids, ['pod-not-starting', 'pending', 'service-not-answering', 'rollout-stuck', 'node-problems', 'api-errors', 'storage']);
    let previous = 0;
    for (const id of ids) {
      await guide.locator(`.symptom[data-entry="${id}"]`).click();
      const commands = await guide.locator(`.guide-entry[data-entry="${id}"] code`).allTextContents();
      assert.ok(commands.some((c) => /^kubectl get events .*--sort-by=\.lastTimestamp$/.test(c)), `${id}: events by time`);
      assert.ok(commands.length >= 4, id);
      if (['pod-not-starting', 'service-not-answering', 'api-errors'].includes(id)) {
        assert.ok(commands.some((c) => c.startsWith('kubectl logs ') && c.includes('--previous')), `${id}: previous logs`);
      }
      // Copied as shown.
      const first = guide.locator(`.guide-entry[data-entry="${id}"] li`).first();
      await first.locator('button.copy').click();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), commands[0]);
      previous += 1;
    }
    assert.equal(previous, 7);
    await guide.locator('.symptom[data-entry="pod-not-starting"]').click();
    await screenshot(page, `newcomer-guide-${lang}`);
    await guide.locator('button.close').click();
    await guide.waitFor({ state: 'detached' });
    // Also one click from under the paste box.
    await page.locator('.drop-zone .open-guide').click();
    await guide.waitFor();
  });
}

for (const [locale, words] of [
  ['en-US', { title: 'What was not read', range: 'paste lines 5–9', offer: 'Pod not starting', next: /most likely to decide/ }],
  ['zh-CN', { title: '没有读取的内容', range: 'paste 第 5–9 行', offer: 'Pod 无法启动', next: /最可能作出判断/ }],
]) {
  const lang = locale.slice(0, 2);
  test(`${lang}: an inconclusive report says what was not read and offers the matching entry`, async (t) => {
    const page = await open(t, { locale });
    await page.locator('#paste').fill(FRAGMENT);
    const box = page.locator('.inconclusive');
    await box.waitFor();
    await analysed(page);
    assert.equal(await box.locator('h3').textContent(), words.title);
    const unread = await box.locator('.unread-list li').allTextContents();
    assert.ok(unread.some((u) => u.startsWith(words.range)), unread.join('\n'));
    const entry = await box.getAttribute('data-entry');
    const offer = box.locator('.open-guide');
    // Nothing in the fragment names its object: the entry that collects the object itself, a Pod's.
    assert.equal(entry, 'pod-not-starting');
    assert.ok((await offer.textContent()).includes(words.offer), await offer.textContent());
    // The one paste most likely to decide, copyable, its output pasted back in one click (issue 40).
    const next = box.locator('.paste-next');
    const command = 'kubectl get events -A --field-selector type=Warning --sort-by=.lastTimestamp';
    assert.equal(await next.locator('code').textContent(), command);
    assert.equal(await next.locator('button.copy').count(), 1);
    assert.match(await box.locator('.paste-next-label').textContent(), words.next);
    await offer.click();
    await page.locator(`.paste-guide .symptom[data-entry="${entry}"][aria-selected="true"]`).waitFor();
    await page.locator(`.paste-guide .guide-entry[data-entry="${entry}"]`).waitFor();
    await screenshot(page, `newcomer-inconclusive-${lang}`);
    // A line not read opens in the input viewer.
    await box.locator('.unread-list button').first().click();
    await page.locator('.input-viewer .line.unread').first().waitFor();
    await page.keyboard.press('Escape');
    await next.locator('button.paste-output').click();
    await page.locator('#follow-up').waitFor();
    assert.equal(await page.locator('.follow-up label').textContent(), `${lang === 'zh' ? '命令输出：' : 'Output of '}${command}`);
  });
}
